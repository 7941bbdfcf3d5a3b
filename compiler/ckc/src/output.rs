//! Printing diagnostics to the terminal.

use crate::cli::Color;
use ck_dsl::{Diagnostics, SourceMap};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use std::io::IsTerminal;

pub fn print_diagnostics(diags: &Diagnostics, sources: &SourceMap, color: Color) {
    let choice = match color {
        Color::Always => ColorChoice::Always,
        Color::Never => ColorChoice::Never,
        Color::Auto if std::io::stderr().is_terminal() => ColorChoice::Auto,
        Color::Auto => ColorChoice::Never,
    };
    let mut stderr = StandardStream::stderr(choice);
    diags.emit(sources, &mut stderr);
}
