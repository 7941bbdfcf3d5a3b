use super::*;
use quote::quote;

/// A valid instance body, with a doc comment and both key spellings (`a { }` and `b.key`).
fn valid() -> TokenStream {
    quote! {
        /// Declared inline.
        instance inline_xdl_v3 {
            op = bwd_weight; kind = xdl_v3; dims = 2; layout = nhwgc; dtype = fp16;
            targets = [gfx942]; block = 64; tile = [32, 128, 32]; k1 = 8;
            instr = [32, 32]; repeat = [1, 4];
            a { cluster = [4, 4, 1]; src_vector = 8; dst_vector = 8; }
            b.cluster = [4, 16, 1]; b.src_vector = 8; b.dst_vector = 8;
            c { shuffle = [1, 1]; cluster = [1, 8, 1, 8]; vector = 2; }
        }
    }
}

/// The body's diagnostics as (code, token text at the primary label).
fn failures(body: TokenStream) -> Vec<(&'static str, String)> {
    let text = TokenText::new(body);
    match compile_one(&text.text) {
        Ok(inst) => panic!("{} compiled", inst.name),
        Err(Failure::Diagnostics(d, _)) => d
            .iter()
            .map(|d| {
                let at = d.primary_span().expect("a label").start as usize;
                (d.code, text.token_at(at).unwrap_or_default().to_string())
            })
            .collect(),
        Err(Failure::Body(errors)) => errors
            .into_iter()
            .map(|(r, _)| {
                (
                    "body",
                    text.token_at(r.start).unwrap_or_default().to_string(),
                )
            })
            .collect(),
    }
}

#[test]
fn tokens_rebuild_ck_text() {
    let t = TokenText::new(quote!(/// it's "x"
    instance a { b.src_vector = 8; t = [1, 2]; s = "q"; }));
    assert_eq!(
        t.text,
        "/// it's \"x\"\ninstance a { b.src_vector = 8 ; t = [ 1 , 2 ] ; s = \"q\" ; }"
    );
    assert_eq!(t.token_at(t.text.find("src").unwrap()), Some("src_vector"));
    assert_eq!(t.token_at(t.text.find('2').unwrap() + 1), Some("2"));
}

#[test]
fn located_tokens_keep_their_lines_and_columns() {
    let body = "instance a {\n    /// Doc.\n    tile = [1,2];\n    a.b = x;\n}";
    let t = TokenText::new(body.parse().unwrap());
    assert_eq!(t.text, body);
}

#[test]
fn doc_attribute_strings() {
    assert_eq!(
        string_value(r#""it\'s \"x\" \\ \u{e9}\x41""#).unwrap(),
        "it's \"x\" \\ éA"
    );
    assert_eq!(string_value(r###"r#"a"b"#"###).unwrap(), "a\"b");
    assert_eq!(string_value(r#""bad \u{zz}""#), None);
    let t = TokenText::new(quote!(#[doc = "one\ntwo"] instance a {}));
    assert_eq!(t.text, "///one\n///two\ninstance a { }");
}

#[test]
fn a_valid_body_compiles_and_expands() {
    let t = TokenText::new(valid());
    let inst = compile_one(&t.text).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(inst.name, "inline_xdl_v3");
    assert_eq!(inst.doc, ["Declared inline."]);
    assert_eq!(inst.b.cluster, [4, 16, 1]);
    assert_eq!(inst.source, SOURCE_NAME);
    let out = expand(valid()).to_string();
    assert!(
        out.starts_with(":: ck_runtime :: Declared :: __new (\"inline_xdl_v3\""),
        "{out}"
    );
    assert!(
        out.contains("DeviceGroupedConvBwdWeight_Xdl_CShuffleV3"),
        "{out}"
    );
}

#[test]
fn each_stage_points_at_its_token() {
    assert_eq!(
        failures(quote!(instance a { tile = ; })),
        [("CK0001", ";".into())]
    );
    let unknown = failures(quote!(instance a { op = bwd_weight; tiel = [1, 2, 3]; }));
    assert_eq!(unknown[0], ("CK0110", "tiel".into()));
    let mut bad = valid().to_string();
    bad = bad.replace("[4 , 16 , 1]", "[4 , 16 , 3]");
    let found = failures(bad.parse().unwrap());
    assert!(found.contains(&("CK0402", "[".into())), "{found:?}");
}

#[test]
fn the_body_holds_one_instance_and_no_imports_or_families() {
    assert_eq!(
        failures(quote!(import "x.ck"; defaults d {} family f { over tile = []; })),
        [("body", "\"x.ck\"".into()), ("body", "f".into())]
    );
    assert_eq!(
        failures(quote!(instance a {} instance b {})),
        [("body", "b".into())]
    );
    assert_eq!(
        failures(quote!(defaults d {})),
        [("body", "defaults".into())]
    );
}

#[test]
fn errors_expand_to_compile_errors_with_the_rendered_diagnostic() {
    let out = expand(quote!(instance a { tiel = 1; })).to_string();
    assert!(out.contains(":: core :: compile_error !"), "{out}");
    assert!(out.contains("CK0110"), "{out}");
    assert!(out.contains("conv_instance!"), "{out}");
    assert!(out.trim_end().ends_with("loop { } }"), "{out}");
}
