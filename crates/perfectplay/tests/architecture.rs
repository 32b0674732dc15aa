//! ARCHITECTURE.md's code map names every source file, and only files that exist: each crate's
//! section (`### \`crates/<name>\``) names the files under its `src/` by their path from there,
//! and the `web` section the page's files.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files under `dir` whose names end in one of `endings`, by their path from `dir`.
fn files(dir: &Path, endings: &[&str]) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if endings.iter().any(|e| path.to_string_lossy().ends_with(e)) {
                let relative = path.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/");
                found.insert(relative);
            }
        }
    }
    found
}

/// The sections of the code map: heading (inside its backticks) to the text under it.
fn sections(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("### ") {
            out.push((heading.trim_matches('`').to_string(), String::new()));
        } else if line.starts_with("## ") {
            out.push((String::new(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

/// The backticked names in `text` that end in one of `endings` and are not paths from the
/// repository's root (those name files of other sections, such as tests).
fn named(text: &str, endings: &[&str]) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| endings.iter().any(|e| t.ends_with(e)) && !t.contains(' '))
        .filter(|t| !t.starts_with("crates/") && !t.starts_with("web/"))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_code_map_names_every_source_file() {
    let root = root();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let sections = sections(&text);
    let mut checked = BTreeSet::new();
    let mut problems = Vec::new();
    let crates = root.join("crates");
    for entry in std::fs::read_dir(&crates).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        let src = crates.join(&name).join("src");
        if !src.is_dir() {
            continue;
        }
        let heading = format!("crates/{name}");
        let Some((_, body)) = sections.iter().find(|(h, _)| *h == heading) else {
            problems.push(format!("no section `{heading}`"));
            continue;
        };
        let have = files(&src, &[".rs"]);
        let listed = named(body, &[".rs"]);
        for f in have.difference(&listed) {
            problems.push(format!("{heading}/src/{f} is not in the code map"));
        }
        for f in listed.difference(&have) {
            problems.push(format!("the code map names {heading}/src/{f}, which does not exist"));
        }
        checked.extend(have.into_iter().map(|f| format!("{heading}/src/{f}")));
    }
    let web = [".html", ".js", ".css"];
    match sections.iter().find(|(h, _)| h == "web") {
        None => problems.push("no section `web`".into()),
        Some((_, body)) => {
            let have = files(&root.join("web"), &web);
            let listed = named(body, &web);
            for f in have.symmetric_difference(&listed) {
                problems.push(format!("web/{f}: in the code map or in web/, not both"));
            }
            checked.extend(have);
        }
    }
    assert!(problems.is_empty(), "ARCHITECTURE.md's code map:\n{}", problems.join("\n"));
    assert!(checked.len() > 100, "{} files checked", checked.len());
}
