family f {
    op = bwd_weight;
    over dtype = [];
}
