family f {
    op = bwd_weight;
    rows (block) { a = (64); }
    rows (block) { b = (128); }
}
