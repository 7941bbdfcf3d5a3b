"""What the corpus tools share about a layer: its class and its output sizes."""


def layer_class(s):
    """The layer's class for the benchmark tables: what sets its kernel apart."""
    c, k, g = s["C"], s["K"], s["G"]
    if s["ndim"] == 1:
        return "1d"
    if g > 1 and c == 1 and k == 1:
        return "depthwise"
    if g > 1:
        return "grouped"
    if s["filter"] == s["stride"] and s["filter"][0] > 1:
        return "patch"
    if c <= 4:
        return "small_c"
    if k <= 4:
        return "small_k"
    if c % 8 or k % 8:
        return "odd"
    if s["ndim"] == 3:
        return "3d"
    if all(f == 1 for f in s["filter"]):
        return "1x1"
    return "regular"


def out_sizes(i, f, s, d, lp, rp):
    return [(a + l + r - e * (k - 1) - 1) // t + 1 for a, k, t, e, l, r in zip(i, f, s, d, lp, rp)]
