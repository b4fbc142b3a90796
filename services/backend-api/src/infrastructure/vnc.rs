//! Connecting to a sandbox's VNC server (x11vnc) and passing its authentication: RFB 3.8,
//! security type 2 ("VNC authentication": DES of the server's challenge keyed with the
//! password). The stream comes back positioned before `ClientInit`, so the relay can
//! offer the browser a connection without a password of its own.

use std::time::Duration;

use des::cipher::{BlockEncrypt, KeyInit};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::domain::agent::SandboxAccess;
use crate::domain::vnc::{DesktopConnector, DesktopStream};
use crate::domain::{DomainError, DomainResult};

/// Connect plus handshake; a VNC server that is up answers in milliseconds.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

const VNC_AUTHENTICATION: u8 = 2;

pub struct VncConnector;

fn no_desktop(detail: impl Into<String>) -> DomainError {
    DomainError::Unavailable {
        what: "the sandbox's desktop",
        detail: detail.into(),
    }
}

#[async_trait::async_trait]
impl DesktopConnector for VncConnector {
    async fn connect(&self, sandbox: &SandboxAccess) -> DomainResult<Box<dyn DesktopStream>> {
        let (Some(address), Some(password)) = (&sandbox.vnc_address, &sandbox.vnc_password) else {
            return Err(no_desktop("the sandbox has no VNC server"));
        };
        let handshake = async {
            let mut stream = TcpStream::connect(address).await?;
            stream.set_nodelay(true)?;
            authenticate(&mut stream, password).await?;
            Ok::<_, Handshake>(stream)
        };
        match tokio::time::timeout(HANDSHAKE_TIMEOUT, handshake).await {
            Ok(Ok(stream)) => Ok(Box::new(stream)),
            Ok(Err(Handshake::Io(err))) => Err(no_desktop(format!("connecting to {address}: {err}"))),
            Ok(Err(Handshake::Refused(why))) => Err(DomainError::Internal(anyhow::anyhow!(
                "the sandbox's VNC server at {address} refused the handshake: {why}"
            ))),
            Err(_) => Err(no_desktop(format!(
                "{address} did not complete the VNC handshake in time"
            ))),
        }
    }
}

enum Handshake {
    Io(std::io::Error),
    Refused(String),
}

impl From<std::io::Error> for Handshake {
    fn from(err: std::io::Error) -> Self {
        Self::Io(err)
    }
}

async fn authenticate(stream: &mut TcpStream, password: &str) -> Result<(), Handshake> {
    let mut version = [0u8; 12];
    stream.read_exact(&mut version).await?;
    if !version.starts_with(b"RFB 003.") || version.as_slice() < b"RFB 003.008\n".as_slice() {
        return Err(Handshake::Refused(format!(
            "it speaks {:?}, not RFB 3.8",
            String::from_utf8_lossy(&version)
        )));
    }
    stream.write_all(b"RFB 003.008\n").await?;
    let count = stream.read_u8().await?;
    if count == 0 {
        return Err(Handshake::Refused(reason(stream).await?));
    }
    let mut types = vec![0u8; usize::from(count)];
    stream.read_exact(&mut types).await?;
    if !types.contains(&VNC_AUTHENTICATION) {
        return Err(Handshake::Refused(format!(
            "it does not offer VNC authentication (only {types:?})"
        )));
    }
    stream.write_u8(VNC_AUTHENTICATION).await?;
    let mut challenge = [0u8; 16];
    stream.read_exact(&mut challenge).await?;
    stream.write_all(&response(password, challenge)).await?;
    if stream.read_u32().await? != 0 {
        return Err(Handshake::Refused(format!(
            "the password was refused: {}",
            reason(stream).await?
        )));
    }
    Ok(())
}

/// A failure reason: a length, then that many bytes of text.
async fn reason(stream: &mut TcpStream) -> std::io::Result<String> {
    let length = stream.read_u32().await?.min(4096);
    let mut text = vec![0u8; length as usize];
    stream.read_exact(&mut text).await?;
    Ok(String::from_utf8_lossy(&text).into_owned())
}

/// DES of the challenge, keyed with the password's first 8 bytes (zero padded), each
/// byte's bits reversed — VNC's long-standing quirk.
fn response(password: &str, challenge: [u8; 16]) -> [u8; 16] {
    let mut key = [0u8; 8];
    for (slot, byte) in key.iter_mut().zip(password.bytes()) {
        *slot = byte.reverse_bits();
    }
    let cipher = des::Des::new_from_slice(&key).expect("a DES key is 8 bytes");
    let mut answer = challenge;
    for block in answer.chunks_mut(8) {
        cipher.encrypt_block(block.into());
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::response;

    #[test]
    fn the_response_is_des_keyed_with_the_bit_reversed_password() {
        // Vector from an independent DES (OpenSSL, key 0e86ceceeef64e26 = "password"
        // with each byte's bits reversed, challenge 00 01 … 0f).
        let challenge: [u8; 16] = core::array::from_fn(|i| i as u8);
        let expected = [
            0xb8, 0x66, 0x92, 0x41, 0x25, 0xc8, 0xee, 0xbb, 0x9d, 0xeb, 0xc1, 0xdb, 0x61, 0xc5, 0x38, 0xe2,
        ];
        assert_eq!(response("password", challenge), expected);
        assert_eq!(
            response("passwordLONGER", challenge),
            expected,
            "only 8 bytes count"
        );
    }
}
