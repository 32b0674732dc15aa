//! A server started from the built binary for a test, and a minimal HTTP client.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// `perfectplay serve --port 0` on an empty data directory (or `data`), killed on drop.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`
    pub base: String,
    data: PathBuf,
}

impl Server {
    pub fn start(name: &str) -> Server {
        let data = fresh_data(name);
        std::fs::create_dir_all(&data).unwrap();
        Self::start_in(data)
    }

    /// A server on a data directory holding `game`'s `variant`, solved first by `perfectplay
    /// solve --no-analysis`.
    pub fn with_solved(name: &str, game: &str, variant: &str) -> Server {
        let data = fresh_data(name);
        perfectplay(&data, &["solve", game, "--variant", variant, "--no-analysis"]);
        Self::start_in(data)
    }

    pub fn start_in(data: PathBuf) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
            .args(["serve", "--port", "0"])
            .env("PERFECTPLAY_DATA", &data)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let base = line
            .trim()
            .strip_prefix("perfectplay serving on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .trim_end_matches('/')
            .to_string();
        Server { child, base, data }
    }

    /// GET a path: the status and the body.
    pub fn get_raw(&self, path: &str) -> (u16, String, String) {
        let (status, head, body) = self.request("GET", path);
        (status, header(&head, "content-type").unwrap_or_default(), body)
    }

    /// GET a JSON path: the status, the value of the header `name` (lower case) and the body.
    pub fn get_with_header(
        &self,
        path: &str,
        name: &str,
    ) -> (u16, Option<String>, serde_json::Value) {
        let (status, head, body) = self.request("GET", path);
        let json = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"));
        (status, header(&head, name), json)
    }

    /// POST (with no body) to a JSON path: the status and the parsed body.
    pub fn post(&self, path: &str) -> (u16, serde_json::Value) {
        let (status, _, body) = self.request("POST", path);
        (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}")))
    }

    /// Kills the server at once (`SIGKILL`: nothing of its own runs), keeping its data directory
    /// for a server started again on it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The data directory it serves.
    pub fn data(&self) -> &std::path::Path {
        &self.data
    }

    /// A request: the status, the head and the body.
    fn request(&self, method: &str, path: &str) -> (u16, String, String) {
        let addr = self.base.trim_start_matches("http://");
        let mut s = TcpStream::connect(addr).unwrap();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut response = String::new();
        s.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        (status, head.to_string(), body.to_string())
    }

    /// GET a JSON path: the status and the parsed body.
    pub fn get(&self, path: &str) -> (u16, serde_json::Value) {
        let (status, content_type, body) = self.get_raw(path);
        assert!(content_type.starts_with("application/json"), "{path}: {content_type}");
        (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}")))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

/// The value of the header `name` (lower case) in a response's head.
fn header(head: &str, name: &str) -> Option<String> {
    head.lines().find_map(|l| {
        let l = l.to_ascii_lowercase();
        l.strip_prefix(name)?.strip_prefix(": ").map(str::to_string)
    })
}

/// An empty path for a test's data directory (whatever an earlier run left there removed).
/// `perfectplay ARGS` on the data directory `data`, which must succeed; its output.
pub fn perfectplay(data: &std::path::Path, args: &[&str]) -> std::process::Output {
    let o = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(args)
        .env("PERFECTPLAY_DATA", data)
        .output()
        .expect("the binary runs");
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o
}

/// A scratch directory for a test, empty at the start and removed when dropped.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        Scratch(fresh_data(name))
    }
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn fresh_data(name: &str) -> PathBuf {
    let data =
        std::env::temp_dir().join(format!("perfectplay-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    data
}

/// Percent-encodes a query value.
pub fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
