//! Just enough of an RFB (VNC) client to check a handshake through the tool-api's relay:
//! protocol 3.8, security type None (the relay is the lock), then `ClientInit`.

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// The screen size the server reports in its `ServerInit`.
pub async fn handshake(stream: &mut (impl AsyncRead + AsyncWrite + Unpin)) -> (u16, u16) {
    let mut version = [0u8; 12];
    stream.read_exact(&mut version).await.unwrap();
    assert!(version.starts_with(b"RFB 003."), "not a VNC server: {version:?}");
    stream.write_all(b"RFB 003.008\n").await.unwrap();
    let count = stream.read_u8().await.unwrap();
    let mut types = vec![0u8; count as usize];
    stream.read_exact(&mut types).await.unwrap();
    assert_eq!(types, [1], "only security type None, behind the relay");
    stream.write_u8(1).await.unwrap();
    assert_eq!(stream.read_u32().await.unwrap(), 0, "SecurityResult: OK");
    stream.write_u8(1).await.unwrap(); // ClientInit: shared
    let width = stream.read_u16().await.unwrap();
    let height = stream.read_u16().await.unwrap();
    (width, height)
}
