/// A doc comment with a bare carriage return:#error injected
instance a {
    op = bwd_weight; kind = xdl_v3; dims = 2; layout = nhwgc; dtype = fp16;
}
