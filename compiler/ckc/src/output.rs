//! Printing diagnostics to the terminal, and listings to standard output.

use crate::cli::Color;
use ck_dsl::{Diagnostics, SourceMap};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use std::fmt::Display;
use std::io::{ErrorKind, IsTerminal, Write};

/// One line of a listing on standard output. A reader that stops early (`ckc list | head`)
/// ends the program quietly, as other command-line tools do; any other write error is fatal.
pub fn line(text: impl Display) {
    if let Err(e) = writeln!(std::io::stdout().lock(), "{text}") {
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing to standard output: {e}");
        std::process::exit(2);
    }
}

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
