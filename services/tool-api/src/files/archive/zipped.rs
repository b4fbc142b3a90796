//! The zip writer, for a stream that cannot seek back: each entry's sizes and checksum
//! follow its data (a data descriptor) instead of sitting in its header.

use std::io::{self, Read, Write};
use std::os::unix::fs::MetadataExt;

use zip::result::ZipError;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use super::contents::{open_entry, Contents};

/// Entries of at least this size get ZIP64 fields. Deciding from the size before
/// compressing leaves room for data that does not compress.
const ZIP64_FROM_BYTES: u64 = 1 << 31;

/// Writes `contents` as a zip, then flushes `out`.
pub fn write<W: Write>(contents: &Contents, out: W) -> io::Result<()> {
    let mut zip = ZipWriter::new_stream(out);
    let mut budget = contents.budget();
    for (entry, name) in contents.entries() {
        let meta = entry.metadata().map_err(io::Error::other)?;
        let name = name.to_string_lossy();
        let options = SimpleFileOptions::default()
            .compression_method(CompressionMethod::Deflated)
            // Fast compression: the sandbox has little CPU to spare.
            .compression_level(Some(1))
            .unix_permissions(meta.mode())
            .last_modified_time(dos_time(meta.mtime()))
            .large_file(meta.len() >= ZIP64_FROM_BYTES);
        let kind = entry.file_type();
        if kind.is_dir() {
            zip.add_directory(name, options).map_err(io_error)?;
        } else if kind.is_symlink() {
            let Some(target) = contents.link_target(entry.path()) else {
                continue;
            };
            zip.add_symlink(name, target.to_string_lossy(), options)
                .map_err(io_error)?;
        } else if kind.is_file() {
            let Some(file) = open_entry(entry.path()) else {
                continue;
            };
            budget.spend_or_fail(meta.len(), entry.path())?;
            zip.start_file(name, options).map_err(io_error)?;
            // Cut at the size measured, as the tar's header cuts it: what is written is
            // what was counted against the cap.
            io::copy(&mut file.take(meta.len()), &mut zip)?;
        }
    }
    zip.finish().map_err(io_error)?.into_inner().flush()
}

/// Keeps an I/O error (above all the client going away) as it is.
fn io_error(err: ZipError) -> io::Error {
    match err {
        ZipError::Io(err) => err,
        other => io::Error::other(other),
    }
}

/// A Unix time as zip's MS-DOS date and time (UTC; zip has no time zone). Times zip cannot
/// hold (before 1980, after 2107) become its earliest date.
fn dos_time(unix_secs: i64) -> DateTime {
    let (days, secs) = (unix_secs.div_euclid(86_400), unix_secs.rem_euclid(86_400));
    let (year, month, day) = civil_from_days(days);
    let parts = (
        u16::try_from(year),
        u8::try_from(secs / 3600),
        u8::try_from(secs / 60 % 60),
        u8::try_from(secs % 60),
    );
    let (Ok(year), Ok(hour), Ok(minute), Ok(second)) = parts else {
        return DateTime::default();
    };
    DateTime::from_date_and_time(year, month, day, hour, minute, second).unwrap_or_default()
}

/// Year, month and day of a count of days since 1970-01-01 (proleptic Gregorian), after
/// Howard Hinnant's `civil_from_days`.
fn civil_from_days(days: i64) -> (i64, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153; // March is 0
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    // In range by construction: 1..=12 and 1..=31.
    (year, month as u8, day as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_times_become_dos_times() {
        let time = dos_time(1_700_000_000); // 2023-11-14 22:13:20 UTC
        let parts = (
            time.year(),
            time.month(),
            time.day(),
            time.hour(),
            time.minute(),
            time.second(),
        );
        assert_eq!(parts, (2023, 11, 14, 22, 13, 20));
        let leap = dos_time(951_782_400); // 2000-02-29 00:00:00 UTC
        assert_eq!((leap.year(), leap.month(), leap.day()), (2000, 2, 29));
    }

    #[test]
    fn times_zip_cannot_hold_become_its_earliest() {
        assert_eq!(dos_time(0), DateTime::default());
        assert_eq!(dos_time(i64::MAX), DateTime::default());
        assert_eq!(dos_time(i64::MIN), DateTime::default());
    }
}
