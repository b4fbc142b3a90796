//! The request messages of `process.Process`, as protobuf JSON has them.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::messages::{Number, SelectorMessage};

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ConfigMessage {
    pub cmd: String,
    pub args: Vec<String>,
    pub envs: BTreeMap<String, String>,
    pub cwd: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PtyMessage {
    pub size: Option<SizeMessage>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SizeMessage {
    pub cols: Number,
    pub rows: Number,
}

#[derive(Debug, Deserialize)]
pub struct StartRequest {
    pub process: Option<ConfigMessage>,
    pub pty: Option<PtyMessage>,
    pub tag: Option<String>,
    pub stdin: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SelectRequest {
    pub process: Option<SelectorMessage>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct InputMessage {
    pub stdin: Option<String>,
    pub pty: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SendInputRequest {
    pub process: Option<SelectorMessage>,
    pub input: Option<InputMessage>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SendSignalRequest {
    pub process: Option<SelectorMessage>,
    pub signal: Value,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct UpdateRequest {
    pub process: Option<SelectorMessage>,
    pub pty: Option<PtyMessage>,
}

/// One message of StreamInput's client stream: `start`, then `data`, with `keepalive`s.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct StreamInputMessage {
    pub start: Option<SelectRequest>,
    pub data: Option<SendInputRequest>,
}
