import "support/cycle_b.ck";
