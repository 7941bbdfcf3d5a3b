//! Command-line arguments.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "ckc",
    version,
    about = "Compile .ck convolution instance descriptions"
)]
pub struct Cli {
    /// When to colour diagnostics.
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true)]
    pub color: Color,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Check .ck files: exit 0 when every instance is valid, 1 on errors.
    Check {
        #[command(flatten)]
        input: Input,
        /// Diagnostics as text (stderr) or JSON (stdout).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// One line per expanded instance: name, op, kind, targets.
    List {
        #[command(flatten)]
        input: Input,
    },
    /// Every parameter of an instance after defaults and derivation, LDS use and occupancy.
    Explain {
        #[command(flatten)]
        input: Input,
        /// Only this instance (default: all).
        #[arg(long)]
        instance: Option<String>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

/// Input files: `.ck` files, folders searched for `.ck` files, or `-` for standard input.
#[derive(Args)]
pub struct Input {
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}
