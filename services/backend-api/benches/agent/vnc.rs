//! The VNC relay benchmark: throughput and round trips through the browser's relay and
//! through the backend's connector alone.

use super::*;

/// A VNC connection as the benchmark drives it: bytes in, bytes out.
trait Wire {
    async fn send(&mut self, bytes: &[u8]);
    /// Some bytes (at least one).
    async fn receive(&mut self) -> Vec<u8>;
}

struct Relayed(tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>);

impl Wire for Relayed {
    async fn send(&mut self, bytes: &[u8]) {
        self.0.send(Message::Binary(bytes.to_vec().into())).await.unwrap();
    }

    async fn receive(&mut self) -> Vec<u8> {
        loop {
            match self.0.next().await.unwrap().unwrap() {
                Message::Binary(bytes) => return bytes.to_vec(),
                Message::Ping(_) | Message::Pong(_) => {}
                other => panic!("unexpected {other:?}"),
            }
        }
    }
}

struct Direct(Box<dyn DesktopStream>);

impl Wire for Direct {
    async fn send(&mut self, bytes: &[u8]) {
        self.0.write_all(bytes).await.unwrap();
    }

    async fn receive(&mut self) -> Vec<u8> {
        let mut chunk = vec![0u8; 256 * 1024];
        let n = self.0.read(&mut chunk).await.unwrap();
        assert!(n > 0, "the VNC server closed");
        chunk.truncate(n);
        chunk
    }
}

/// Reads exactly `n` bytes, keeping any surplus in `spare`.
async fn read_exact(wire: &mut impl Wire, spare: &mut Vec<u8>, n: usize) -> Vec<u8> {
    while spare.len() < n {
        spare.extend(wire.receive().await);
    }
    spare.drain(..n).collect()
}

/// Reads one FramebufferUpdate (raw rectangles, 4 bytes a pixel); returns its size.
async fn read_update(wire: &mut impl Wire, spare: &mut Vec<u8>) -> usize {
    let header = loop {
        match read_exact(wire, spare, 1).await[0] {
            0 => break [vec![0], read_exact(wire, spare, 3).await].concat(),
            2 => {} // Bell
            3 => {
                // ServerCutText: the clipboard changed in the sandbox.
                let header = read_exact(wire, spare, 7).await;
                let length = u32::from_be_bytes([header[3], header[4], header[5], header[6]]);
                read_exact(wire, spare, length as usize).await;
            }
            other => panic!("unexpected server message {other}"),
        }
    };
    let rectangles = u16::from_be_bytes([header[2], header[3]]);
    let mut size = 4;
    for _ in 0..rectangles {
        let rectangle = read_exact(wire, spare, 12).await;
        let width = usize::from(u16::from_be_bytes([rectangle[4], rectangle[5]]));
        let height = usize::from(u16::from_be_bytes([rectangle[6], rectangle[7]]));
        assert_eq!(&rectangle[8..12], &[0, 0, 0, 0], "raw encoding");
        read_exact(wire, spare, width * height * 4).await;
        size += 12 + width * height * 4;
    }
    size
}

fn update_request(width: u16, height: u16) -> Vec<u8> {
    let [w0, w1] = width.to_be_bytes();
    let [h0, h1] = height.to_be_bytes();
    vec![3, 0, 0, 0, 0, 0, w0, w1, h0, h1]
}

/// MB/s of full-screen raw updates pulled for a few seconds.
async fn throughput(wire: &mut impl Wire, width: u16, height: u16) -> f64 {
    // Raw encoding only: the server sends every pixel, 4 bytes each.
    wire.send(&[2, 0, 0, 1, 0, 0, 0, 0]).await;
    let mut spare = Vec::new();
    let started = Instant::now();
    let mut bytes = 0usize;
    while started.elapsed() < Duration::from_secs(RELAY_SECONDS) {
        wire.send(&update_request(width, height)).await;
        bytes += read_update(wire, &mut spare).await;
    }
    bytes as f64 / started.elapsed().as_secs_f64() / 1e6
}

/// One 1×1 update, requested and received.
async fn round_trip(wire: &mut impl Wire) -> Duration {
    let mut spare = Vec::new();
    let sent = Instant::now();
    wire.send(&update_request(1, 1)).await;
    read_update(wire, &mut spare).await;
    sent.elapsed()
}

pub(super) async fn relay(app: &TestApp, token: &str, session: &str, manager: &Manager) {
    let mut relayed = Relayed(live::connect(app, token, session, "view").await);
    let mut spare = Vec::new();
    read_exact(&mut relayed, &mut spare, 12).await;
    relayed.send(b"RFB 003.008\n").await;
    read_exact(&mut relayed, &mut spare, 2).await;
    relayed.send(&[1]).await;
    read_exact(&mut relayed, &mut spare, 4).await;
    relayed.send(&[1]).await;
    while spare.len() < 24 {
        spare.extend(relayed.receive().await);
    }
    let width = u16::from_be_bytes([spare[0], spare[1]]);
    let height = u16::from_be_bytes([spare[2], spare[3]]);
    let name = u32::from_be_bytes([spare[20], spare[21], spare[22], spare[23]]) as usize;
    assert_eq!(spare[4], 32, "32 bits a pixel");
    read_exact(&mut relayed, &mut spare, 24 + name).await;
    let through_relay = throughput(&mut relayed, width, height).await;

    let client = manager.client();
    let query = sandbox_manager_client::contract::ListQuery {
        session_id: Some(session.to_owned()),
        ..Default::default()
    };
    let tool_api = client
        .list(&query)
        .await
        .unwrap()
        .pop()
        .unwrap()
        .tool_api
        .unwrap();
    let access = SandboxAccess {
        tool_api_url: tool_api.url,
        tool_api_token: tool_api.token,
        shell: SandboxAccess::AGENT_SHELL.to_owned(),
        size: SandboxSize::default(),
    };
    // The relay's own connector, without the relay.
    let mut direct = Direct(VncConnector.connect(&access).await.unwrap());
    direct.send(&[1]).await;
    let mut spare = Vec::new();
    while spare.len() < 24 {
        spare.extend(direct.receive().await);
    }
    let name = u32::from_be_bytes([spare[20], spare[21], spare[22], spare[23]]) as usize;
    read_exact(&mut direct, &mut spare, 24 + name).await;
    let straight = throughput(&mut direct, width, height).await;
    // Alternating, so both see the VNC server's own update pacing alike.
    let (mut relayed_trips, mut direct_trips) = (Vec::new(), Vec::new());
    for _ in 0..ROUND_TRIPS {
        relayed_trips.push(round_trip(&mut relayed).await);
        direct_trips.push(round_trip(&mut direct).await);
    }
    let relay_trip = percentile(&mut relayed_trips, 0.5);
    let direct_trip = percentile(&mut direct_trips, 0.5);
    println!(
        "VNC relay throughput:           {through_relay:.0} MB/s  (direct {straight:.0} MB/s; target ≥ 100)"
    );
    println!(
        "VNC relay added latency:        p50 {:.2} ms  (1×1 update round trip {:.2} ms relayed, {:.2} ms direct)",
        ms(relay_trip.saturating_sub(direct_trip)),
        ms(relay_trip),
        ms(direct_trip)
    );
}
