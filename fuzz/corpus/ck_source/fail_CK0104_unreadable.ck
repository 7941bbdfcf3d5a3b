import "support";
