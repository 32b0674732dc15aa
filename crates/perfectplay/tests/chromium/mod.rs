//! The page in headless Chromium (Debian's `chromium`): starting it, opening the page, reading
//! the page's state as JSON, waiting for it.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use headless_chrome::{Browser, LaunchOptions, Tab};
use serde_json::Value;

use crate::common::Server;

pub const CHROMIUM: &str = "/usr/bin/chromium";

pub fn browser() -> Browser {
    browser_sized(1100, 900)
}

/// A tab whose screen is `width` x `height` CSS pixels, as a device's (390 x 844: a phone's;
/// headless Chromium's window is no narrower than 500).
pub fn tab_sized(browser: &Browser, width: u32, height: u32) -> Arc<Tab> {
    use headless_chrome::protocol::cdp::Emulation::SetDeviceMetricsOverride;
    let tab = browser.new_tab().unwrap();
    tab.call_method(SetDeviceMetricsOverride {
        width,
        height,
        device_scale_factor: 1.0,
        mobile: width < 500,
        scale: None,
        screen_width: None,
        screen_height: None,
        position_x: None,
        position_y: None,
        dont_set_visible_size: None,
        screen_orientation: None,
        viewport: None,
        display_feature: None,
        device_posture: None,
    })
    .unwrap();
    tab
}

/// A browser whose window is `width` x `height` CSS pixels.
pub fn browser_sized(width: u32, height: u32) -> Browser {
    assert!(
        std::path::Path::new(CHROMIUM).exists(),
        "the browser test needs {CHROMIUM}: `apt-get install -y chromium` (scripts/test does)"
    );
    Browser::new(
        LaunchOptions::default_builder()
            .path(Some(PathBuf::from(CHROMIUM)))
            .sandbox(false)
            .headless(true)
            .window_size(Some((width, height)))
            .idle_browser_timeout(Duration::from_secs(120))
            .build()
            .unwrap(),
    )
    .expect("chromium starts")
}

/// A browser on the server's page at `path` (`/`, `/?game=...`).
pub fn open_at(server: &Server, path: &str) -> (Browser, Arc<Tab>) {
    let browser = browser();
    let tab = browser.new_tab().unwrap();
    tab.navigate_to(&format!("{}{path}", server.base)).unwrap();
    (browser, tab)
}

/// A browser on the page with `query`, its move buttons drawn.
pub fn open(server: &Server, query: &str) -> (Browser, Arc<Tab>) {
    let (browser, tab) = open_at(server, &format!("/?{query}"));
    tab.wait_for_element("#board .move").unwrap();
    (browser, tab)
}

/// Evaluates an expression that returns a JSON string, parsed.
pub fn eval(tab: &Tab, expr: &str) -> Value {
    let r = tab.evaluate(&format!("JSON.stringify({expr})"), false).unwrap();
    serde_json::from_str(r.value.unwrap().as_str().unwrap()).unwrap()
}

pub fn wait_for(tab: &Tab, expr: &str, want: &Value) {
    wait_for_within(tab, expr, want, Duration::from_secs(10));
}

/// Waits up to `most` for `expr` to evaluate to `want`.
pub fn wait_for_within(tab: &Tab, expr: &str, want: &Value, most: Duration) {
    let started = Instant::now();
    loop {
        let got = eval(tab, expr);
        if &got == want {
            return;
        }
        assert!(started.elapsed() < most, "{expr}: {got}, waiting for {want}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A page element's text.
pub fn text(tab: &Tab, id: &str) -> String {
    eval(tab, &format!("document.getElementById('{id}').textContent")).as_str().unwrap().to_string()
}

/// Sets a select (`p1`, `p2`, `variant`) to `value`, as a person would.
pub fn choose(tab: &Tab, id: &str, value: &str) {
    tab.evaluate(
        &format!(
            "(() => {{ const s = document.getElementById('{id}'); s.value = '{value}'; \
             s.dispatchEvent(new Event('change')); return 1; }})()"
        ),
        false,
    )
    .unwrap();
}

pub const BUTTONS: &str = "[...document.querySelectorAll('#board .move')].map(e => ({move: e.dataset.move, value: e.dataset.value, fill: e.getAttribute('fill'), label: e.dataset.label, opacity: Number(e.getAttribute('opacity'))}))";
pub const MOVES_PLAYED: &str =
    "[...document.querySelectorAll('#moves li')].map(e => e.textContent)";
pub const LIVE: &str = "document.querySelectorAll('#board .move').length";
pub const POINTS: &str =
    "[...document.querySelectorAll('#history .vh-point')].map(e => e.dataset.value)";
pub const PIECES: &str =
    "[...document.querySelectorAll('#pieces [data-entity]')].map(e => e.dataset.entity).join('')";
pub const PREDICTION: &str = "document.getElementById('prediction').textContent";
