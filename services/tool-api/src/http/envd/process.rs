//! `process.Process`: Start and Connect stream a process's events (`start`, `data`, `end`,
//! and `keepalive` every `Keepalive-Ping-Interval` seconds when the client asks); List,
//! SendInput, CloseStdin, SendSignal and Update are unary; StreamInput reads a client
//! stream of input.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::body::Body;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Extension;
use futures::{Stream, StreamExt};
use nix::sys::signal::Signal;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

use super::connect::{failed_stream, parse, streaming, EnvelopeDecoder, StreamRequest, Unary, UnaryRequest};
use super::messages::{decode_bytes, encode_bytes, selector, Number};
use super::process_messages::{
    PtyMessage, SelectRequest, SendInputRequest, SendSignalRequest, StartRequest, StreamInputMessage,
    UpdateRequest,
};
use super::{check_request_user, deadline, keepalive, AppState, SharedEnvd};
use crate::envd::error::{EnvdError, EnvdResult};
use crate::envd::process::{Event, Exit, Output, ProcessConfig, PtySize, StartSpec, Subscription};

pub async fn start(
    State(state): State<AppState>,
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    StreamRequest(request): StreamRequest<StartRequest>,
) -> Response {
    let ends = match Ends::asked(&headers, &state) {
        Ok(ends) => ends,
        Err(err) => return failed_stream(err),
    };
    let started = check_request_user(&headers).and_then(|()| {
        let config = request.process.unwrap_or_default();
        if config.cmd.is_empty() {
            return Err(EnvdError::invalid("the process has no cmd"));
        }
        let cwd = match &config.cwd {
            Some(cwd) => envd.resolve(cwd)?,
            None => envd.home().to_path_buf(),
        };
        // HOME and PWD as E2B's own daemon gives them, so `cd ~` and `pwd` name E2B's
        // home (a link to the sandbox user's) rather than where it leads.
        let mut env = BTreeMap::from([
            ("HOME".to_owned(), envd.home().display().to_string()),
            ("PWD".to_owned(), cwd.display().to_string()),
        ]);
        env.extend(state.sandbox_env.vars());
        env.extend(config.envs.clone());
        crate::child_env::check(&env).map_err(EnvdError::InvalidArgument)?;
        let pty = match request.pty {
            Some(pty) => Some(size(pty)?),
            None => None,
        };
        let spec = StartSpec {
            config: ProcessConfig {
                cmd: config.cmd,
                args: config.args,
                envs: config.envs,
                cwd: config.cwd,
            },
            tag: request.tag,
            // Absent means open, as for clients older than the field.
            stdin: request.stdin.unwrap_or(true),
            pty,
            cwd,
            env,
        };
        envd.processes.start(spec)
    });
    match started {
        Ok((process, subscription)) => {
            if let Some(limit) = ends.limit {
                process.kill_after(limit);
            }
            streaming(events(process.pid, subscription, ends))
        }
        Err(err) => failed_stream(err),
    }
}

pub async fn connect(
    State(state): State<AppState>,
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    StreamRequest(request): StreamRequest<SelectRequest>,
) -> Response {
    let ends = match Ends::asked(&headers, &state) {
        Ok(ends) => ends,
        Err(err) => return failed_stream(err),
    };
    // The stream ends at the deadline; the process goes on, as under E2B's envd.
    let found = check_request_user(&headers)
        .and_then(|()| selector(request.process))
        .and_then(|selected| envd.processes.find(&selected));
    match found {
        Ok(process) => streaming(events(process.pid, process.subscribe(), ends)),
        Err(err) => failed_stream(err),
    }
}

pub async fn list(Extension(envd): Extension<SharedEnvd>, headers: HeaderMap) -> Unary<Value> {
    Unary(check_request_user(&headers).map(|()| {
        let processes: Vec<Value> = envd
            .processes
            .list()
            .iter()
            .map(|process| {
                let mut config = json!({
                    "cmd": process.config.cmd,
                    "args": process.config.args,
                    "envs": process.config.envs,
                });
                if let Some(cwd) = &process.config.cwd {
                    config["cwd"] = json!(cwd);
                }
                let mut info = json!({ "config": config, "pid": process.pid });
                if let Some(tag) = &process.tag {
                    info["tag"] = json!(tag);
                }
                info
            })
            .collect();
        json!({ "processes": processes })
    }))
}

pub async fn send_input(
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    UnaryRequest(request): UnaryRequest<SendInputRequest>,
) -> Unary<Value> {
    Unary(write_input(&envd, &headers, request).await.map(|()| json!({})))
}

async fn write_input(envd: &SharedEnvd, headers: &HeaderMap, request: SendInputRequest) -> EnvdResult<()> {
    check_request_user(headers)?;
    let process = envd.processes.find(&selector(request.process)?)?;
    let input = request.input.unwrap_or_default();
    match input.stdin.or(input.pty) {
        Some(bytes) => process.write(&decode_bytes(&bytes)?).await,
        None => Ok(()),
    }
}

pub async fn close_stdin(
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    UnaryRequest(request): UnaryRequest<SelectRequest>,
) -> Unary<Value> {
    let result = async {
        check_request_user(&headers)?;
        envd.processes
            .find(&selector(request.process)?)?
            .close_stdin()
            .await
    };
    Unary(result.await.map(|()| json!({})))
}

pub async fn send_signal(
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    UnaryRequest(request): UnaryRequest<SendSignalRequest>,
) -> Unary<Value> {
    let result = (|| {
        check_request_user(&headers)?;
        let signal = match &request.signal {
            Value::String(name) if name == "SIGNAL_SIGKILL" => Signal::SIGKILL,
            Value::String(name) if name == "SIGNAL_SIGTERM" => Signal::SIGTERM,
            Value::Number(n) if n.as_i64() == Some(9) => Signal::SIGKILL,
            Value::Number(n) if n.as_i64() == Some(15) => Signal::SIGTERM,
            other => {
                return Err(EnvdError::invalid(format!(
                    "signal {other} is not one of SIGNAL_SIGKILL and SIGNAL_SIGTERM"
                )))
            }
        };
        envd.processes.find(&selector(request.process)?)?.signal(signal);
        Ok(json!({}))
    })();
    Unary(result)
}

pub async fn update(
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    UnaryRequest(request): UnaryRequest<UpdateRequest>,
) -> Unary<Value> {
    let result = async {
        check_request_user(&headers)?;
        let process = envd.processes.find(&selector(request.process)?)?;
        match request.pty {
            Some(pty) => process.resize(size(pty)?).await,
            None => Ok(()),
        }
    };
    Unary(result.await.map(|()| json!({})))
}

/// Client streaming: a `start` naming the process, then `data` messages written in order.
pub async fn stream_input(
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let result = async {
        check_request_user(&headers)?;
        let mut chunks = body.into_data_stream();
        let mut decoder = EnvelopeDecoder::default();
        let mut process = None;
        loop {
            while let Some((_, payload)) = decoder.next_envelope()? {
                let message: StreamInputMessage = parse(&payload)?;
                if let Some(start) = message.start {
                    process = Some(envd.processes.find(&selector(start.process)?)?);
                } else if let Some(data) = message.data {
                    let target = process
                        .as_ref()
                        .ok_or_else(|| EnvdError::invalid("input came before the start message"))?;
                    let input = data.input.unwrap_or_default();
                    if let Some(bytes) = input.stdin.or(input.pty) {
                        target.write(&decode_bytes(&bytes)?).await?;
                    }
                }
            }
            match chunks.next().await {
                Some(Ok(chunk)) => decoder.push(&chunk),
                Some(Err(err)) => {
                    return Err(EnvdError::invalid(format!("the input stream broke off: {err}")))
                }
                None if decoder.is_empty() => return Ok(json!({})),
                None => return Err(EnvdError::invalid("the input stream ends inside a message")),
            }
        }
    };
    streaming(futures::stream::iter([result.await]))
}

fn size(pty: PtyMessage) -> EnvdResult<PtySize> {
    let size = pty.size.unwrap_or_default();
    let narrow = |n: Number, field: &str| {
        u16::try_from(n.0).map_err(|_| EnvdError::invalid(format!("PTY {field} {} is out of range", n.0)))
    };
    Ok(PtySize {
        cols: narrow(size.cols, "cols")?,
        rows: narrow(size.rows, "rows")?,
    })
}

/// What one wait of an event stream produced.
enum Next {
    Event(Option<Event>),
    Keepalive,
    Stopping,
    Deadline,
}

/// What besides the process's end ends or punctuates its stream.
struct Ends {
    /// The request's `Connect-Timeout-Ms`: the stream then ends with `deadline_exceeded`.
    limit: Option<Duration>,
    /// The keepalive period the client asked for.
    keepalive: Option<Duration>,
    /// The tool-api is shutting down.
    stopping: CancellationToken,
}

impl Ends {
    /// What a Start or Connect request's headers ask for.
    fn asked(headers: &HeaderMap, state: &AppState) -> EnvdResult<Self> {
        Ok(Self {
            limit: deadline(headers)?,
            keepalive: keepalive(headers),
            stopping: state.stopping.clone(),
        })
    }
}

/// A process's events as `StartResponse`/`ConnectResponse` messages.
fn events(
    pid: u32,
    mut subscription: Subscription,
    ends: Ends,
) -> impl Stream<Item = EnvdResult<Value>> + Send {
    let expires = ends.limit.map(|limit| tokio::time::Instant::now() + limit);
    async_stream::stream! {
        yield Ok(json!({ "event": { "start": { "pid": pid } } }));
        // Without keepalives the ticker never fires in practice.
        let period = ends.keepalive.unwrap_or(Duration::from_secs(1 << 30));
        let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
        loop {
            let next = tokio::select! {
                // The deadline first (the process it kills must not end the stream as its
                // own end), then a shutdown, which output never holds up.
                biased;
                () = until(expires) => Next::Deadline,
                () = ends.stopping.cancelled() => Next::Stopping,
                event = subscription.next() => Next::Event(event),
                _ = ticker.tick() => Next::Keepalive,
            };
            match next {
                Next::Event(Some(Event::Data(output))) => yield Ok(json!({ "event": { "data": data(&output) } })),
                Next::Event(Some(Event::End(exit))) => {
                    yield Ok(json!({ "event": { "end": end(&exit) } }));
                    break;
                }
                Next::Keepalive => yield Ok(json!({ "event": { "keepalive": {} } })),
                Next::Deadline => {
                    let limit = ends.limit.unwrap_or_default().as_millis();
                    yield Err(EnvdError::DeadlineExceeded(format!(
                        "the request's time ran out (Connect-Timeout-Ms: {limit})"
                    )));
                    break;
                }
                Next::Event(None) | Next::Stopping => break,
            }
        }
    }
}

/// Returns at `at`; never without one.
async fn until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

fn data(output: &Output) -> Value {
    match output {
        Output::Stdout(bytes) => json!({ "stdout": encode_bytes(bytes) }),
        Output::Stderr(bytes) => json!({ "stderr": encode_bytes(bytes) }),
        Output::Pty(bytes) => json!({ "pty": encode_bytes(bytes) }),
    }
}

fn end(exit: &Exit) -> Value {
    let mut end = json!({ "exitCode": exit.exit_code, "exited": exit.exited, "status": exit.status });
    if let Some(error) = &exit.error {
        end["error"] = json!(error);
    }
    end
}
