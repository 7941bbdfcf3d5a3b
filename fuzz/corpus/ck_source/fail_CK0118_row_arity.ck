family f {
    op = bwd_weight;
    rows (block, tile) {
        small = (64);
    }
}
