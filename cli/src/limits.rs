//! The limit flags: one `--max-*` flag per entry of `feedmill::Limits::ALL` (name, unit,
//! default and help from the library's one list), so a new limit needs no change here.

use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};
use feedmill::Limits;

/// The limits set on the command line (the others keep their defaults).
#[derive(Clone, Debug, Default)]
pub struct LimitArgs {
    set: Vec<(&'static str, usize)>,
}

impl LimitArgs {
    /// Writes the limits given on the command line into `limits`.
    pub fn apply(&self, limits: &mut Limits) {
        for &(name, value) in &self.set {
            if let Some(limit) = Limits::by_name(name) {
                limit.set(limits, value);
            }
        }
    }
}

impl FromArgMatches for LimitArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut args = LimitArgs::default();
        args.update_from_arg_matches(matches)?;
        Ok(args)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        for limit in Limits::ALL {
            if let Some(&value) = matches.get_one::<usize>(limit.name()) {
                self.set.retain(|(name, _)| *name != limit.name());
                self.set.push((limit.name(), value));
            }
        }
        Ok(())
    }
}

impl Args for LimitArgs {
    fn augment_args(mut cmd: Command) -> Command {
        for limit in Limits::ALL {
            cmd = cmd.arg(
                Arg::new(limit.name())
                    .long(limit.name().replace('_', "-"))
                    .value_name(if limit.is_bytes() { "BYTES" } else { "N" })
                    .value_parser(clap::value_parser!(usize))
                    .help(format!("{} [default: {}]", limit.summary(), limit.default_value()))
                    .help_heading("Limits (docs/safety.md)"),
            );
        }
        cmd
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}
