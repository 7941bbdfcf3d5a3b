// A missing value: the parser's error points at the `;` it found instead.
fn main() {
    let _ = ck_runtime::conv_instance! {
        instance ui_parse {
            op = bwd_weight;
            tile = ;
        }
    };
}
