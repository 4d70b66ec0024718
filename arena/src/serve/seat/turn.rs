//! A turn's text, as the terminal shows it, cut for the page: the position
//! above, a label for each move below.

/// `text` (the position, then the `count` moves numbered from 1, a line
/// each, as the terminal shows them) as the position and each move's
/// label; `None` when its last lines are not the moves so numbered (an
/// engine's text that draws them otherwise).
pub fn split(text: &str, count: usize) -> Option<(String, Vec<String>)> {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    let first = lines.len().checked_sub(count)?;
    let labels: Vec<String> = (1..)
        .zip(&lines[first..])
        .map(|(number, line)| line.trim_start().strip_prefix(&format!("{number}. ")).map(str::to_string))
        .collect::<Option<_>>()?;
    let mut position = &lines[..first];
    if position.last().is_some_and(|line| line.trim() == "moves:") {
        position = &position[..position.len() - 1];
    }
    Some((position.join("\n"), labels))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_numbered_moves_are_cut_from_the_position() {
        let all_fives = "  layout:  2 [2|3] 3\n  hand:    [0|3] [3|3]\n  moves:\n     1. [0|3] on end 1 (shows 3)\n     2. [3|3] on end 1 (shows 3)\n";
        let (position, labels) = split(all_fives, 2).unwrap();
        assert_eq!(position, "  layout:  2 [2|3] 3\n  hand:    [0|3] [3|3]");
        assert_eq!(labels, ["[0|3] on end 1 (shows 3)", "[3|3] on end 1 (shows 3)"]);
        let leduc = "round 1 (bet size 2), pot 2; your card Kh\nyou owe 0\n  1. check\n  2. raise (put in 2)\n";
        assert_eq!(split(leduc, 2).unwrap().1, ["check", "raise (put in 2)"]);
        assert_eq!(split("a board drawn otherwise\n  x. check\n", 1), None);
        assert_eq!(split("  1. check\n", 2), None, "fewer lines than moves");
    }
}
