// Shared settings of the bwd-weight samples.

/// CDNA targets shared by the bwd-weight library.
defaults cdna {
    op = bwd_weight;
    targets = [gfx90a, gfx942];
}

/* A base built on a base. */
defaults cdna_v3 : cdna {
    kind = xdl_v3;
    pipeline { scheduler = intrawave; version = v1; }
}
