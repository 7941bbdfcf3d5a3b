family f {
    op = bwd_weight;
    name = "{family}-{dtype}";
    over dtype = [fp16, bf16];
}
