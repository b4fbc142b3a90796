//! What `/v1/info` reports: who and where the sandbox user is, and how much CPU, memory
//! and disk the sandbox uses. Inside a container the cgroup's own counters are the truth
//! (the host's `/proc/meminfo` would describe the whole machine), so they are read first.

use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use tool_api_contract::info::{CpuInfo, DiskInfo, InfoResponse, MemoryInfo};

use crate::error::ToolResult;
use crate::paths::Workspace;

pub async fn collect(
    workspace: &Workspace,
    started: Instant,
    running_commands: u32,
) -> ToolResult<InfoResponse> {
    let root = workspace.root().to_path_buf();
    let info = tokio::task::spawn_blocking(move || -> anyhow::Result<InfoResponse> {
        let uid = nix::unistd::getuid();
        let user = nix::unistd::User::from_uid(uid)
            .ok()
            .flatten()
            .map(|u| u.name)
            .unwrap_or_else(|| uid.to_string());
        Ok(InfoResponse {
            version: env!("CARGO_PKG_VERSION").into(),
            uptime_secs: started.elapsed().as_secs(),
            user,
            uid: uid.as_raw(),
            home: std::env::var("HOME").unwrap_or_default(),
            workspace: root.display().to_string(),
            cpu: cpu(),
            memory: memory(),
            disk: disk(&root)?,
            storage: None,
            running_commands,
            desktop: None,
        })
    })
    .await
    .context("info task")??;
    Ok(info)
}

fn read_u64(path: &str) -> Option<u64> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// A `key value` line of a flat-keyed cgroup or proc file.
fn keyed_u64(path: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().find_map(|line| {
        let mut parts = line.split_whitespace();
        (parts.next()? == key).then(|| parts.next()?.parse().ok())?
    })
}

fn cpu() -> CpuInfo {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    let load_average = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|text| {
            let mut it = text.split_whitespace().map(|v| v.parse().unwrap_or(0.0));
            [
                it.next().unwrap_or(0.0),
                it.next().unwrap_or(0.0),
                it.next().unwrap_or(0.0),
            ]
        })
        .unwrap_or_default();
    let usage_usec = keyed_u64("/sys/fs/cgroup/cpu.stat", "usage_usec")
        .or_else(|| read_u64("/sys/fs/cgroup/cpuacct/cpuacct.usage").map(|ns| ns / 1000));
    CpuInfo {
        cores,
        load_average,
        usage_usec,
    }
}

pub fn memory() -> MemoryInfo {
    let kib = |key: &str| keyed_u64("/proc/meminfo", key).map(|v| v * 1024);
    let host_total = kib("MemTotal:").unwrap_or(0);
    let host_used = host_total.saturating_sub(kib("MemAvailable:").unwrap_or(0));
    // cgroup v2, then v1; a v1 "no limit" is a huge number, so cap it at the host's total.
    let used = read_u64("/sys/fs/cgroup/memory.current")
        .or_else(|| read_u64("/sys/fs/cgroup/memory/memory.usage_in_bytes"));
    let limit = read_u64("/sys/fs/cgroup/memory.max")
        .or_else(|| read_u64("/sys/fs/cgroup/memory/memory.limit_in_bytes"))
        .filter(|&limit| host_total == 0 || limit < host_total);
    match (used, limit) {
        (Some(used), Some(limit)) => MemoryInfo {
            used_bytes: used,
            limit_bytes: limit,
        },
        _ => MemoryInfo {
            used_bytes: host_used,
            limit_bytes: host_total,
        },
    }
}

/// The container's memory in use as `docker stats` counts it: the cgroup's usage less
/// the inactive file cache (reclaimable at once). `None` without a cgroup memory
/// controller of its own (not in a container).
pub fn working_set() -> Option<u64> {
    let (usage, inactive) = match read_u64("/sys/fs/cgroup/memory.current") {
        Some(usage) => (usage, keyed_u64("/sys/fs/cgroup/memory.stat", "inactive_file")),
        None => (
            read_u64("/sys/fs/cgroup/memory/memory.usage_in_bytes")?,
            keyed_u64("/sys/fs/cgroup/memory/memory.stat", "total_inactive_file"),
        ),
    };
    Some(usage.saturating_sub(inactive.unwrap_or(0)))
}

fn disk(path: &Path) -> anyhow::Result<DiskInfo> {
    let stat = nix::sys::statvfs::statvfs(path).with_context(|| format!("statvfs {}", path.display()))?;
    let block = stat.fragment_size() as u64;
    let total = stat.blocks() as u64 * block;
    let available = stat.blocks_available() as u64 * block;
    let free = stat.blocks_free() as u64 * block;
    Ok(DiskInfo {
        path: path.display().to_string(),
        total_bytes: total,
        used_bytes: total.saturating_sub(free),
        available_bytes: available,
    })
}
