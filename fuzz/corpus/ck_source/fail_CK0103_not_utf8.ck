instance x { op = bwd_ÿþweight; }
