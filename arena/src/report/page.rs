//! The files of a report: the page (its template, styles and script inline,
//! the data as a JSON script element) and, in a directory beside it, the
//! records in chunks of [`CHUNK`] games, each a script the page loads when a
//! game of it is opened (scripts load from `file://`, where `fetch` may not).
//!
//! A replay is the page the game's engine draws for `arena view`
//! ([`Game::html_page`](game::Game::html_page)): the report keeps
//! that page once, cut around the record it embeds ([`Viewer`]), and the
//! browser puts any game's record back in between.

use game::html::{json_script, script_safe};

/// How many records one chunk file holds.
pub const CHUNK: usize = 100;

/// The page around its data.
const TEMPLATE: &str = include_str!("report.html");
/// Its styles.
const STYLE: &str = include_str!("report.css");
/// Its script.
const SCRIPT: &str = include_str!("report.js");

/// The replay page of a game, cut around the record: every game's page is
/// `prefix`, the record as [`json_script`] writes it, and `suffix`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Viewer {
    /// What comes before the record.
    pub prefix: String,
    /// What comes after it.
    pub suffix: String,
}

impl Viewer {
    /// The cut of `page` (an engine's page of a record), found from the
    /// first of `records` and checked on every other: `None` when a page
    /// does not hold its record exactly once, or holds more that depends on
    /// the game than its record.
    pub fn cut(page: impl Fn(&str) -> String, records: &[&str]) -> Option<Viewer> {
        let first = records.first()?;
        let (html, record) = (page(first), script_safe(first));
        let mut found = html.match_indices(&record);
        let (at, _) = found.next()?;
        if found.next().is_some() {
            return None;
        }
        let viewer = Viewer { prefix: html[..at].to_string(), suffix: html[at + record.len()..].to_string() };
        records[1..].iter().all(|other| viewer.page(other) == page(other)).then_some(viewer)
    }

    /// The page of `record`.
    pub fn page(&self, record: &str) -> String {
        format!("{}{}{}", self.prefix, script_safe(record), self.suffix)
    }
}

/// The name of the directory of records beside the page `file_name`:
/// `report.html` → `report-files`.
pub fn files_dir(file_name: &str) -> String {
    let stem = file_name.strip_suffix(".html").or_else(|| file_name.strip_suffix(".htm")).unwrap_or(file_name);
    format!("{stem}-files")
}

/// The file name of chunk `index` in that directory.
pub fn chunk_name(index: usize) -> String {
    format!("records-{index}.js")
}

/// Chunk `index`: a script that hands its records, as strings, to the page.
pub fn chunk(index: usize, records: &[String]) -> String {
    let strings = serde_json::to_string(records).expect("strings serialize");
    format!("arenaRecords({index}, {strings});\n")
}

/// The page of `data` (the report's JSON).
pub fn page(data_json: &str) -> String {
    let script = format!("{}\n{SCRIPT}", game::html::EXACT_JSON);
    TEMPLATE.replacen("/* STYLE */", STYLE, 1).replacen("/* SCRIPT */", &script, 1).replacen(
        "<!-- DATA -->",
        &json_script("report", data_json),
        1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine_page(record: &str) -> String {
        format!("<html><p>replay</p>{}<script>draw()</script></html>", json_script("record", record))
    }

    #[test]
    fn the_viewer_is_cut_around_the_record_and_puts_any_record_back() {
        let records = [r#"{"id":0,"bots":["<a>"]}"#, r#"{"id":1,"bots":["b&c"]}"#];
        let viewer = Viewer::cut(engine_page, &records).expect("a page around its record");
        assert_eq!(viewer.page(records[1]), engine_page(records[1]));
        assert_eq!(viewer.prefix, r#"<html><p>replay</p><script type="application/json" id="record">"#);
        // A page that shows more of its record than the record itself cannot be shared.
        let titled = |record: &str| format!("<title>{}</title>{}", record.len(), engine_page(record));
        assert_eq!(Viewer::cut(titled, &[records[0], r#"{"id":12}"#]), None);
        assert_eq!(Viewer::cut(|_| "<p>nothing</p>".to_string(), &records), None);
        assert_eq!(Viewer::cut(engine_page, &[]), None);
    }

    #[test]
    fn chunks_and_their_directory() {
        assert_eq!(files_dir("report.html"), "report-files");
        assert_eq!(files_dir("league"), "league-files");
        assert_eq!(chunk_name(3), "records-3.js");
        let text = chunk(2, &[r#"{"id":200}"#.to_string()]);
        assert_eq!(text, "arenaRecords(2, [\"{\\\"id\\\":200}\"]);\n");
    }

    #[test]
    fn the_page_holds_its_parts_and_loads_nothing_from_the_network() {
        let html = page(r#"{"bots":["</script>"]}"#);
        assert!(html.starts_with("<!DOCTYPE html>"));
        for placeholder in ["/* STYLE */", "/* SCRIPT */", "<!-- DATA -->"] {
            assert!(!html.contains(placeholder), "{placeholder} left in the page");
        }
        assert!(html.contains(r#"{"bots":["\u003c/script\u003e"]}"#));
        assert!(!SCRIPT.contains("</script") && !SCRIPT.contains("<!--"), "the script would end its element");
        for external in ["http://", "https://", "<link", "@import", "url("] {
            assert!(!html.contains(external), "the page refers to something outside it: {external}");
        }
    }
}
