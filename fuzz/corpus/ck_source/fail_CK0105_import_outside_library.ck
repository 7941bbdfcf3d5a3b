// Reads a file outside the library: refused, and its text is never shown.
import "../../../../../../../../etc/passwd";
