family f {
    op = bwd_weight;
    name = "{family}_{nope}";
    over dtype = [fp16, bf16];
}
