//! Upload, download and archive through HTTP against the real server: streamed in both
//! directions, with size limits, byte ranges, and clients that go away halfway.
//!
//! # Layout
//!
//! - `upload_download.rs`: a 200 MB file both ways, ranges, content types, overwrite,
//!   limits, an upload that breaks off, and bad queries;
//! - `archive.rs`: a directory as a zip or a tar.gz, and archive errors;
//! - `leaving.rs`: clients that leave mid-download or mid-archive.
//!
//! This file holds the streamed bodies, the memory watch and the helpers they share.

mod archive;
mod leaving;
mod upload_download;

use crate::support;

use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;
use reqwest::header::{ACCEPT_RANGES, CONTENT_DISPOSITION, CONTENT_LENGTH, CONTENT_RANGE, CONTENT_TYPE};
use reqwest::{Method, StatusCode};
use support::{expect_code, spawn_app, spawn_app_with, TestApp};
use tool_api_contract::files::ArchiveFormat;
use tool_api_contract::{ErrorBody, ErrorCode};

const MIB: usize = 1 << 20;

/// Chunk `index` of a generated file: 1 MiB whose first bytes carry the index, so a lost,
/// repeated or reordered chunk changes the checksum.
fn chunk(index: usize) -> Bytes {
    let mut data = vec![(index % 251) as u8; MIB];
    data[..8].copy_from_slice(&(index as u64).to_le_bytes());
    Bytes::from(data)
}

/// CRC-32 and length of the generated file of `chunks` chunks.
fn expected(chunks: usize) -> (u32, u64) {
    let mut crc = flate2::Crc::new();
    for index in 0..chunks {
        crc.update(&chunk(index));
    }
    (crc.sum(), (chunks * MIB) as u64)
}

/// The generated file as a streamed request body (no `Content-Length`).
fn streamed_body(chunks: usize) -> reqwest::Body {
    let stream = futures::stream::iter(0..chunks).map(|index| Ok::<_, std::io::Error>(chunk(index)));
    reqwest::Body::wrap_stream(stream)
}

/// CRC-32 and length of a response body, read as it arrives.
async fn consume(response: reqwest::Response) -> (u32, u64) {
    let mut crc = flate2::Crc::new();
    let mut len = 0u64;
    let mut body = response.bytes_stream();
    while let Some(piece) = body.next().await {
        let piece = piece.unwrap();
        crc.update(&piece);
        len += piece.len() as u64;
    }
    (crc.sum(), len)
}

/// Samples this process's resident memory (client and server both) while a transfer runs.
struct MemoryWatch {
    baseline: u64,
    stop: Arc<AtomicBool>,
    sampler: tokio::task::JoinHandle<u64>,
}

impl MemoryWatch {
    fn start() -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let sampler = tokio::spawn({
            let stop = stop.clone();
            async move {
                let mut peak = 0;
                while !stop.load(Ordering::Relaxed) {
                    peak = peak.max(resident_bytes());
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
                peak
            }
        });
        Self {
            baseline: resident_bytes(),
            stop,
            sampler,
        }
    }

    /// How far above its level at the start memory went, in MiB.
    async fn growth_mib(self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        self.sampler.await.unwrap().saturating_sub(self.baseline) >> 20
    }
}

fn resident_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

/// Names in a directory, sorted; staging files included, so leftovers show.
fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
