import "support/does_not_exist.ck";
