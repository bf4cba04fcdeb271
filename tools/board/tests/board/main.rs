//! The board's tests, in one test binary (one link of the web stack instead
//! of two): `server` over plain HTTP, `browser` in headless chromium.

mod browser;
mod server;
