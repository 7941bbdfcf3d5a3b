/// CK0123: a family name longer than 128 characters (emitted file names are built from it).
family a_family_whose_name_goes_on_and_on_well_past_what_any_file_system_takes_once_the_emitter_adds_its_prefixes_and_suffixes_to_it_here {
    op = bwd_weight;
    kind = xdl_v3;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx90a, gfx942];
    block = 256;
    tile = [128, 128, 32];
    k1 = 8;
    a { src_vector = 8; dst_vector = 8; }
    b { src_vector = 8; dst_vector = 8; }
    c { vector = 8; }
    pipeline { scheduler = intrawave; version = v1; }
    rows (tile) {
        t = ([128, 128, 32]);
    }
}
