//! The tar.gz writer.

use std::io::{self, Read, Write};

use flate2::write::GzEncoder;
use flate2::Compression;
use tar::{Builder, Header, HeaderMode};

use super::contents::{open_entry, Contents};

/// Writes `contents` as a gzip-compressed tar, then flushes `out`.
pub fn write<W: Write>(contents: &Contents, out: W) -> io::Result<()> {
    // Fast compression: the sandbox has little CPU to spare, and the link is not the
    // bottleneck.
    let mut tar = Builder::new(GzEncoder::new(out, Compression::fast()));
    let mut budget = contents.budget();
    for (entry, name) in contents.entries() {
        let meta = entry.metadata().map_err(io::Error::other)?;
        let mut header = Header::new_gnu();
        header.set_metadata_in_mode(&meta, HeaderMode::Complete);
        let kind = entry.file_type();
        if kind.is_dir() {
            tar.append_data(&mut header, &name, io::empty())?;
        } else if kind.is_symlink() {
            let Some(target) = contents.link_target(entry.path()) else {
                continue;
            };
            tar.append_link(&mut header, &name, target)?;
        } else if kind.is_file() {
            let Some(file) = open_entry(entry.path()) else {
                continue;
            };
            budget.spend_or_fail(meta.len(), entry.path())?;
            tar.append_data(&mut header, &name, exactly(file, meta.len()))?;
        }
    }
    tar.into_inner()?.finish()?.flush()
}

/// Exactly `size` bytes of `file`: the header already holds the size, so a file that grew
/// meanwhile is cut and one that shrank is padded with zeros, and the archive stays whole.
fn exactly(file: std::fs::File, size: u64) -> impl Read {
    file.take(size).chain(io::repeat(0)).take(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_file_still_gives_its_declared_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"abc").unwrap();
        let mut grown = Vec::new();
        exactly(std::fs::File::open(&path).unwrap(), 2)
            .read_to_end(&mut grown)
            .unwrap();
        assert_eq!(grown, b"ab");
        let mut shrunk = Vec::new();
        exactly(std::fs::File::open(&path).unwrap(), 5)
            .read_to_end(&mut shrunk)
            .unwrap();
        assert_eq!(shrunk, b"abc\0\0");
    }
}
