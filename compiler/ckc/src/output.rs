//! Printing diagnostics to the terminal, and listings to standard output.

use crate::cli::Color;
use ck_dsl::{Diagnostics, SourceMap};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use std::fmt::Display;
use std::io::{ErrorKind, IsTerminal, Write};
use std::process::ExitCode;

/// One line of a listing on standard output. A reader that stops early (`ckc list | head`)
/// ends the program quietly, as other command-line tools do; any other write error (a full
/// disk) is fatal with a message, never a panic.
pub fn line(item: impl Display) {
    text(format_args!("{item}\n"));
}

/// Text on standard output as it is, with [`line()`]'s handling of write errors.
pub fn text(value: impl Display) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = write!(out, "{value}").and_then(|()| out.flush()) {
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing to standard output: {e}");
        std::process::exit(2);
    }
}

/// `println!` through [`line()`]: no panic on a closed pipe or a full disk.
macro_rules! outln {
    ($($arg:tt)*) => { $crate::output::line(format_args!($($arg)*)) };
}

/// `print!` through [`text()`].
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::text(format_args!($($arg)*)) };
}

pub(crate) use {out, outln};

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

/// The status of a command that checks something: 0 when it passed, 1 when it did not (2, an
/// error, comes from the caller's `Err`).
pub(crate) fn exit(ok: bool) -> ExitCode {
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
