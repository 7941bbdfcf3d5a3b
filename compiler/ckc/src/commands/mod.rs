//! One function per subcommand; each returns the process exit code.

pub(crate) mod candidates;
mod emit;
mod features;
mod import;
mod run;
mod tune;

use crate::cli::{Cli, Command, Format};
use crate::input;
use crate::output::{exit, print_diagnostics};
use ck_compiler::ir::Validated;
use ck_compiler::load::Session;
use std::process::ExitCode;

pub fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.command {
        Command::Check { input, format } => {
            let session = input::load(&input)?;
            let result = ck_compiler::compile(&session);
            match format {
                Format::Json => {
                    let (count, diags) = match &result {
                        Ok(v) => (v.instances().len(), v.warnings().clone()),
                        Err(d) => (0, d.clone()),
                    };
                    let report = serde_json::json!({
                        "instances": count,
                        "diagnostics": diags.to_json(session.sources()),
                    });
                    crate::output::outln!(
                        "{}",
                        serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?
                    );
                }
                Format::Text => match &result {
                    Ok(v) => {
                        print_diagnostics(v.warnings(), session.sources(), cli.color);
                        eprintln!(
                            "checked {} instance(s) in {} file(s): ok",
                            v.instances().len(),
                            session.sources().len()
                        )
                    }
                    Err(d) => print_diagnostics(d, session.sources(), cli.color),
                },
            }
            Ok(exit(result.is_ok()))
        }
        Command::List {
            paths,
            problem: Some(problem),
            device,
            target,
        } => {
            let rank_for = candidates::RankFor::from_args(device, target.as_deref())?;
            candidates::list(&problem, &paths, rank_for, cli.color)
        }
        Command::List {
            paths,
            problem: None,
            ..
        } if paths.is_empty() => {
            list_lines(ck_instances::all());
            Ok(exit(true))
        }
        Command::List {
            paths,
            problem: None,
            ..
        } => with_validated(
            &crate::cli::Input {
                paths,
                allow_outside_imports: false,
            },
            cli.color,
            |v| {
                list_lines(v.instances());
                Ok(Outcome::Ok)
            },
        ),
        Command::Run(args) => run::run(&args, cli.color),
        Command::Bench(args) => crate::bench::run(&args, cli.color),
        Command::Tune(args) => tune::run(&args, cli.color),
        Command::Features(args) => features::run(&args, cli.color),
        Command::BenchReport(args) => crate::bench::report(&args),
        Command::Explain {
            input,
            instance,
            format,
        } => with_validated(&input, cli.color, |v| {
            let chosen: Vec<_> = match &instance {
                Some(name) => vec![
                    v.get(name)
                        .ok_or_else(|| format!("no instance named `{name}`"))?,
                ],
                None => v.instances().iter().collect(),
            };
            for inst in chosen {
                let explanation = ck_compiler::analysis::explain(inst);
                match format {
                    Format::Json => crate::output::outln!(
                        "{}",
                        serde_json::to_string_pretty(&explanation).map_err(|e| e.to_string())?
                    ),
                    Format::Text => crate::output::outln!("{explanation}"),
                }
            }
            Ok(Outcome::Ok)
        }),
        Command::Emit { target } => emit::run(target, cli.color),
        Command::Import { source } => import::run(source, cli.color),
    }
}

/// How a command over valid input ended: done, or refused for reasons in the input (exit 1).
enum Outcome {
    Ok,
    Rejected(Vec<String>),
}

impl Outcome {
    /// Prints the reasons for a refusal and gives the exit code.
    fn report(self) -> ExitCode {
        match self {
            Outcome::Ok => exit(true),
            Outcome::Rejected(reasons) => {
                for r in reasons {
                    eprintln!("error: {r}");
                }
                exit(false)
            }
        }
    }
}

/// Compiles the input; on success runs `f` on the validated instances, else prints the diagnostics.
fn with_validated(
    input: &crate::cli::Input,
    color: crate::cli::Color,
    f: impl FnOnce(&Validated) -> Result<Outcome, String>,
) -> Result<ExitCode, String> {
    let session: Session = input::load(input)?;
    match ck_compiler::compile(&session) {
        Ok(v) => {
            print_diagnostics(v.warnings(), session.sources(), color);
            f(&v).map(Outcome::report)
        }
        Err(d) => {
            print_diagnostics(&d, session.sources(), color);
            Ok(exit(false))
        }
    }
}

/// `ckc list`'s lines: name, op, kind and targets of each instance.
fn list_lines(instances: &[ck_compiler::ir::Checked]) {
    for inst in instances {
        let targets: Vec<_> = inst.targets.iter().map(|a| a.keyword()).collect();
        crate::output::line(format_args!(
            "{}\t{}\t{}\t{}",
            inst.name,
            inst.op,
            inst.kind,
            targets.join(",")
        ));
    }
}
