family f {
    op = bwd_weight;
    over dtype = [fp16, bf16];
    rows (dtype, block) {
        small = (fp16, 64);
    }
}
