/// A doc comment that would swallow the next C++ line \
instance a {
    op = bwd_weight; kind = xdl_v3; dims = 2; layout = nhwgc; dtype = fp16;
}
