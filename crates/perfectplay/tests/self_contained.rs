//! The project is self-contained: every relative path the build or a test names (an
//! `include_str!`, a file under `CARGO_MANIFEST_DIR`) stays inside the repository and exists
//! there. A clone with nothing beside it builds and passes; the published tables the tests compare
//! with live in `reference/`, each with its source in `reference/README.md`.

use std::path::{Component, Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The crate directory (`CARGO_MANIFEST_DIR`) of a source file under `crates/`.
fn crate_dir(file: &Path) -> PathBuf {
    let mut dir = file.parent().unwrap();
    while !dir.join("Cargo.toml").exists() {
        dir = dir.parent().unwrap();
    }
    dir.to_path_buf()
}

/// `base` joined with `relative`, `..` resolved lexically.
fn resolve(base: &Path, relative: &str) -> PathBuf {
    let mut path = base.to_path_buf();
    for component in Path::new(relative).components() {
        match component {
            Component::ParentDir => {
                path.pop();
            }
            Component::Normal(c) => path.push(c),
            _ => {}
        }
    }
    path
}

/// Every relative path that climbs (`../`) in a string literal of `line`, without a leading
/// `{}` or `/` (`format!("{}/../x", env!("CARGO_MANIFEST_DIR"))`, `concat!(.., "/../x")`) and cut
/// at the first placeholder (`{name}`), so that what is left is a file or a directory.
fn climbing_paths(line: &str) -> Vec<String> {
    let literals = line.split('"').skip(1).step_by(2);
    literals
        .map(|l| l.trim_start_matches("{}").trim_start_matches('/'))
        .filter(|l| l.starts_with("../"))
        .map(|l| match l.find('{') {
            Some(at) => l[..at].rsplit_once('/').map_or("", |(dir, _)| dir).to_string(),
            None => l.to_string(),
        })
        .collect()
}

#[test]
fn every_path_the_build_and_the_tests_name_is_inside_the_repository() {
    let root = root();
    let mut files = Vec::new();
    rust_files(&root.join("crates"), &mut files);
    let mut checked = 0;
    let mut outside = Vec::new();
    // This file's own examples of what the scan finds are not paths the tests read.
    for file in files.iter().filter(|f| !f.ends_with(file!().rsplit('/').next().unwrap())) {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            // `include_str!` and its kin resolve against the file; the rest against the crate.
            let base = if line.contains("include_") {
                file.parent().unwrap().to_path_buf()
            } else {
                crate_dir(file)
            };
            for path in climbing_paths(line) {
                let target = resolve(&base, &path);
                checked += 1;
                if !target.starts_with(&root) || !target.exists() {
                    outside.push(format!("{}:{}: {path}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(outside.is_empty(), "paths outside the repository or missing: {outside:#?}");
    // The tables the tests compare with, and the page the server embeds, are among them.
    assert!(checked >= 10, "only {checked} relative paths found: the scan is broken");
}

#[test]
fn every_reference_table_names_its_source() {
    let dir = root().join("reference");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let mut tables = 0;
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = entry.file_name().into_string().unwrap();
        if !name.ends_with(".tsv") {
            continue;
        }
        tables += 1;
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let header: String = text.lines().take_while(|l| l.starts_with('#')).collect();
        assert!(
            header.contains("Source") || header.contains("Computed"),
            "reference/{name} does not say where it comes from in its `#` lines"
        );
        assert!(readme.contains(&format!("`{name}`")), "reference/README.md does not list {name}");
    }
    assert!(tables >= 90, "only {tables} tables in reference/");
}

#[test]
fn the_scan_finds_the_paths_it_must() {
    assert_eq!(
        climbing_paths(r#"let p = format!("{}/../../reference/{name}", env!("X"));"#),
        ["../../reference"]
    );
    assert_eq!(
        climbing_paths(r#"concat!(env!("X"), "/../../reference/a.tsv")"#),
        ["../../reference/a.tsv"]
    );
    assert_eq!(climbing_paths(r#"include_str!("../../../web/app.js")"#), ["../../../web/app.js"]);
    assert!(climbing_paths(r#"let a = "x/../y"; let b = "/usr/bin/chromium";"#).is_empty());
    let base = Path::new("/a/b/c");
    assert_eq!(resolve(base, "../../d/e.tsv"), Path::new("/a/d/e.tsv"));
}
