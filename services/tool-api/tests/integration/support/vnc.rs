//! Just enough of an RFB (VNC) client to check the password handshake: protocol 3.8, VNC
//! authentication (DES of the server's challenge with the password as key).

use des::cipher::{BlockEncrypt, KeyInit};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Outcome of a handshake attempt.
#[derive(Debug, PartialEq)]
pub enum Handshake {
    Accepted { width: u16, height: u16 },
    Refused,
}

pub async fn handshake(address: &str, password: &str) -> std::io::Result<Handshake> {
    let mut stream = TcpStream::connect(address).await?;
    let mut version = [0u8; 12];
    stream.read_exact(&mut version).await?;
    assert!(version.starts_with(b"RFB 003."), "not a VNC server: {version:?}");
    stream.write_all(b"RFB 003.008\n").await?;
    let count = stream.read_u8().await?;
    let mut types = vec![0u8; count as usize];
    stream.read_exact(&mut types).await?;
    assert!(
        types.contains(&2),
        "VNC authentication must be offered (and nothing weaker): {types:?}"
    );
    assert!(!types.contains(&1), "the server offers no-authentication access");
    stream.write_u8(2).await?;
    let mut challenge = [0u8; 16];
    stream.read_exact(&mut challenge).await?;
    stream.write_all(&vnc_response(password, challenge)).await?;
    if stream.read_u32().await? != 0 {
        return Ok(Handshake::Refused);
    }
    stream.write_u8(1).await?; // ClientInit: shared
    let width = stream.read_u16().await?;
    let height = stream.read_u16().await?;
    Ok(Handshake::Accepted { width, height })
}

/// VNC's quirk: the key is the password (8 bytes, zero padded) with each byte's bits reversed.
fn vnc_response(password: &str, challenge: [u8; 16]) -> [u8; 16] {
    let mut key = [0u8; 8];
    for (slot, byte) in key.iter_mut().zip(password.bytes()) {
        *slot = byte.reverse_bits();
    }
    let cipher = des::Des::new_from_slice(&key).expect("8-byte key");
    let mut response = challenge;
    for block in response.chunks_mut(8) {
        cipher.encrypt_block(block.into());
    }
    response
}
