//! `EntryInfo`, what E2B reports about a file: its kind, size, permissions as Go prints
//! them (E2B's envd is Go), owner, modification time, symlink target and the metadata
//! kept in its `user.e2b.*` extended attributes. Serialised as protobuf JSON.

use std::collections::BTreeMap;
use std::fs::Metadata;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;

use super::error::{EnvdError, EnvdResult};

/// Where E2B keeps a file's metadata: extended attributes under this prefix.
pub const METADATA_PREFIX: &str = "user.e2b.";

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EntryInfo {
    pub name: String,
    /// `FILE_TYPE_FILE` or `FILE_TYPE_DIRECTORY`; for a symlink, its target's kind.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub path: String,
    /// An `int64`, which protobuf JSON writes as a string.
    pub size: String,
    pub mode: u32,
    pub permissions: String,
    pub owner: String,
    pub group: String,
    pub modified_time: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symlink_target: Option<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub metadata: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_symlink: bool,
}

impl EntryInfo {
    /// Whether the entry is a directory (a symlink to one counts).
    pub fn is_dir(&self) -> bool {
        self.kind == DIRECTORY
    }
}

const FILE: &str = "FILE_TYPE_FILE";
const DIRECTORY: &str = "FILE_TYPE_DIRECTORY";
const UNSPECIFIED: &str = "FILE_TYPE_UNSPECIFIED";

/// Describes the file at `path` (absolute), not following a final symlink.
pub fn describe(path: &Path) -> EnvdResult<EntryInfo> {
    let meta = std::fs::symlink_metadata(path).map_err(|err| EnvdError::io(err, path))?;
    Ok(describe_with(path, &meta))
}

/// Describes the file at `path` whose `lstat` is `meta`.
pub fn describe_with(path: &Path, meta: &Metadata) -> EntryInfo {
    let is_symlink = meta.file_type().is_symlink();
    let (kind, symlink_target) = if is_symlink {
        let target = std::fs::metadata(path).ok();
        let resolved = std::fs::canonicalize(path).ok().or_else(|| {
            std::fs::read_link(path)
                .ok()
                .map(|link| path.parent().unwrap_or(Path::new("/")).join(link))
        });
        (
            target.map_or(UNSPECIFIED, |t| kind_of(&t)),
            resolved.map(|p| p.display().to_string()),
        )
    } else {
        (kind_of(meta), None)
    };
    EntryInfo {
        name: path
            .file_name()
            .map_or_else(|| "/".to_owned(), |n| n.to_string_lossy().into_owned()),
        kind,
        path: path.display().to_string(),
        size: meta.len().to_string(),
        mode: meta.permissions().mode() & 0o777,
        permissions: permissions(meta),
        owner: owner(meta.uid()),
        group: group(meta.gid()),
        modified_time: meta
            .modified()
            .map(|time| DateTime::<Utc>::from(time).to_rfc3339_opts(SecondsFormat::AutoSi, true))
            .unwrap_or_default(),
        symlink_target,
        metadata: metadata(path),
        is_symlink,
    }
}

fn kind_of(meta: &Metadata) -> &'static str {
    if meta.is_dir() {
        DIRECTORY
    } else {
        FILE
    }
}

/// The mode as Go's `FileMode.String` prints it: `-rw-r--r--`, `drwxr-xr-x`, `Lrwxrwxrwx`.
fn permissions(meta: &Metadata) -> String {
    let file_type = meta.file_type();
    let lead = if file_type.is_dir() {
        'd'
    } else if file_type.is_symlink() {
        'L'
    } else {
        '-'
    };
    let mode = meta.permissions().mode();
    std::iter::once(lead)
        .chain((0..9).map(|bit| {
            let set = mode & (0o400 >> bit) != 0;
            match (set, bit % 3) {
                (false, _) => '-',
                (true, 0) => 'r',
                (true, 1) => 'w',
                (true, _) => 'x',
            }
        }))
        .collect()
}

fn owner(uid: u32) -> String {
    nix::unistd::User::from_uid(uid.into())
        .ok()
        .flatten()
        .map_or_else(|| uid.to_string(), |user| user.name)
}

fn group(gid: u32) -> String {
    nix::unistd::Group::from_gid(gid.into())
        .ok()
        .flatten()
        .map_or_else(|| gid.to_string(), |group| group.name)
}

/// The file's `user.e2b.*` attributes, prefix removed; none where the filesystem keeps none.
pub fn metadata(path: &Path) -> BTreeMap<String, String> {
    let Ok(names) = xattr::list(path) else {
        return BTreeMap::new();
    };
    names
        .filter_map(|name| {
            let key = name.to_str()?.strip_prefix(METADATA_PREFIX)?.to_owned();
            let value = xattr::get(path, &name).ok()??;
            Some((key, String::from_utf8_lossy(&value).into_owned()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_as_e2b_reports_them() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.txt");
        std::fs::write(&file, "hello").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
        let entry = describe(&file).unwrap();
        assert_eq!(
            (entry.name.as_str(), entry.kind, entry.size.as_str()),
            ("a.txt", FILE, "5")
        );
        assert_eq!((entry.mode, entry.permissions.as_str()), (0o640, "-rw-r-----"));
        assert!(entry.modified_time.ends_with('Z'), "{}", entry.modified_time);
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("a.txt", &link).unwrap();
        let linked = describe(&link).unwrap();
        assert!(linked.is_symlink);
        assert_eq!(linked.kind, FILE);
        assert_eq!(
            linked.symlink_target,
            Some(std::fs::canonicalize(&file).unwrap().display().to_string())
        );
        assert!(linked.permissions.starts_with('L'));
        assert_eq!(
            describe(dir.path()).unwrap().permissions.chars().next(),
            Some('d')
        );
    }
}
