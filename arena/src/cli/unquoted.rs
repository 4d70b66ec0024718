//! A bot command with arguments given unquoted (`arena check-bot perl bot.pl`,
//! `--bot a=python3 bot.py`): the shell splits it, and clap sees the
//! arguments as unexpected ones. Pure: the corrected command line.

use clap::Command;

/// The command line `args` (the program first) with the words of the bot
/// command that `unexpected` (an argument clap refused) was split from
/// quoted back into one, the program shown as `program`; `None` when
/// `unexpected` does not follow a bot command.
pub fn corrected(cli: &Command, args: &[String], program: &str, unexpected: &str) -> Option<String> {
    if unexpected.starts_with('-') {
        return None;
    }
    let sub = cli.find_subcommand(args.get(1)?)?;
    let at = args.iter().skip(2).position(|arg| arg == unexpected)? + 2;
    let start = bot_before(sub, &args[..at])?;
    let end = at + args[at..].iter().take_while(|arg| !arg.starts_with('-')).count();
    let quote = |arg: &str| shell_words::quote(arg).into_owned();
    let mut line = vec![quote(program)];
    line.extend(args[1..start].iter().map(|arg| quote(arg)));
    line.push(quote(&args[start..end].join(" ")));
    line.extend(args[end..].iter().map(|arg| quote(arg)));
    Some(line.join(" "))
}

/// Where the bot command that the last words of `args` (after the
/// subcommand) continue begins: the value of an option that takes one
/// (`--bot`, `--new`, `--base`; the option itself for `--bot=…`), or the
/// positional bot of `check-bot`; `None` when they continue no bot command.
fn bot_before(sub: &Command, args: &[String]) -> Option<usize> {
    let mut positionals = sub.get_positionals();
    let mut bot = None;
    let mut i = 2;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if let Some(long) = arg.strip_prefix("--") {
            let (name, inline) = long.split_once('=').map_or((long, false), |(name, _)| (name, true));
            let option = sub.get_arguments().find(|option| option.get_long() == Some(name));
            bot = None;
            if let Some(option) = option.filter(|option| option.get_action().takes_values()) {
                match inline {
                    true => bot = takes_bot(option).then_some(i - 1),
                    false => {
                        bot = takes_bot(option).then_some(i);
                        i += 1;
                    }
                }
            }
        } else if arg.starts_with('-') {
            bot = None;
        } else if let Some(positional) = positionals.next() {
            bot = takes_bot(positional).then_some(i - 1);
        }
        // Any other word continues the bot command, if one is open.
    }
    bot.filter(|&start| start < args.len())
}

/// Whether `arg`'s value is a bot command.
fn takes_bot(arg: &clap::Arg) -> bool {
    arg.get_value_names().is_some_and(|names| names.iter().any(|name| name.as_str().ends_with("COMMAND")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn fix(line: &str) -> Option<String> {
        let args = shell_words::split(line).unwrap();
        let cli = super::super::Cli::command();
        let unexpected = args.last().unwrap().clone();
        corrected(&cli, &args, "target/release/arena", &unexpected)
    }

    fn fix_at(line: &str, unexpected: &str) -> Option<String> {
        let args = shell_words::split(line).unwrap();
        corrected(&super::super::Cli::command(), &args, "arena", unexpected)
    }

    #[test]
    fn the_words_of_a_split_bot_command_are_quoted_back_together() {
        assert_eq!(fix("arena check-bot perl bot.pl").unwrap(), "target/release/arena check-bot 'perl bot.pl'");
        assert_eq!(
            fix_at("arena check-bot --game leduc perl bot.pl --seed 3", "bot.pl").unwrap(),
            "arena check-bot --game leduc 'perl bot.pl' --seed 3"
        );
        assert_eq!(
            fix_at("arena match --bot a=python3 bot.py --depth --bot g=./g", "bot.py").unwrap(),
            "arena match --bot 'a=python3 bot.py' --depth --bot 'g=./g'"
        );
        assert_eq!(fix_at("arena sprt --new n=java -jar x.jar --base b=./b", "x.jar"), None, "-jar ends the words");
        assert_eq!(
            fix_at("arena sprt --new n=node a.js b --base b=./b", "a.js").unwrap(),
            "arena sprt --new 'n=node a.js b' --base 'b=./b'"
        );
        assert_eq!(
            fix("arena league --bot=a=python3 bot.py").unwrap(),
            "target/release/arena league '--bot=a=python3 bot.py'"
        );
    }

    #[test]
    fn other_unexpected_arguments_are_left_to_clap() {
        assert_eq!(fix_at("arena match --games 4 extra", "extra"), None, "the value of --games is no bot");
        assert_eq!(fix_at("arena check-bot ./bot --frobnicate", "--frobnicate"), None);
        assert_eq!(fix_at("arena verify out extra", "extra"), None, "verify's positional is no bot");
        assert_eq!(fix_at("arena nosuch a b", "b"), None);
    }
}
