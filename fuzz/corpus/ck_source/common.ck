// Target sets shared by the whole library.

/// CDNA2/3/4 (wave64, MFMA): the targets of every XDL and CK-Tile family.
defaults cdna {
    targets = [gfx90a, gfx942, gfx950];
}

/// CDNA4 only: direct global-to-LDS loads and async pipelines.
defaults cdna4 {
    targets = [gfx950];
}

/// RDNA3/4 (wave32, WMMA): the targets of the WMMA families.
defaults rdna {
    targets = [gfx1100, gfx1201];
}
