//! `EntryInfo`, what E2B reports about a file: its kind, size, permissions as Go prints
//! them (E2B's envd is Go), owner, modification time, symlink target and the metadata
//! kept in its `user.e2b.*` extended attributes. Serialised as protobuf JSON.

use std::collections::BTreeMap;
use std::fs::Metadata;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

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
    // A link's kind and mode are its target's, as E2B's envd gives them; its
    // `permissions` stay the link's own (`Lrwxrwxrwx`).
    let (kind, mode, symlink_target) = if is_symlink {
        let target = std::fs::metadata(path).ok();
        (
            target.as_ref().map_or(UNSPECIFIED, kind_of),
            target.as_ref().unwrap_or(meta).permissions().mode() & 0o777,
            link_target(path).map(|p| p.display().to_string()),
        )
    } else {
        (kind_of(meta), meta.permissions().mode() & 0o777, None)
    };
    EntryInfo {
        name: path
            .file_name()
            .map_or_else(|| "/".to_owned(), |n| n.to_string_lossy().into_owned()),
        kind,
        path: path.display().to_string(),
        size: meta.len().to_string(),
        mode,
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

/// Where the link at `path` leads, every link on the way followed (E2B's envd follows them
/// all), but written under the directories `path` names: the home is `/home/user`, a link
/// to the sandbox user's real home, and a target in it is given under `/home/user`, as
/// E2B, whose home is a real directory, gives it. A dangling link: its target as written,
/// taken from the link's directory.
fn link_target(path: &Path) -> Option<PathBuf> {
    let Ok(target) = std::fs::canonicalize(path) else {
        let link = std::fs::read_link(path).ok()?;
        return Some(path.parent().unwrap_or(Path::new("/")).join(link));
    };
    // The nearest directory above `path` whose real location holds the target ("/" does).
    path.ancestors()
        .skip(1)
        .find_map(|dir| {
            let real = std::fs::canonicalize(dir).ok()?;
            let rest = target.strip_prefix(real).ok()?;
            Some(match rest.as_os_str().is_empty() {
                true => dir.to_path_buf(),
                false => dir.join(rest),
            })
        })
        .or(Some(target))
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
        assert_eq!((linked.kind, linked.mode), (FILE, 0o640));
        assert_eq!(linked.symlink_target, Some(file.display().to_string()));
        assert!(linked.permissions.starts_with('L'));
        assert_eq!(
            describe(dir.path()).unwrap().permissions.chars().next(),
            Some('d')
        );
    }

    #[test]
    fn link_targets_are_written_under_the_directories_the_path_names() {
        // `home` a link to `real`, as /home/user is to the sandbox user's home.
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(root.join("real/d")).unwrap();
        std::os::unix::fs::symlink(root.join("real"), root.join("home")).unwrap();
        std::fs::write(root.join("real/d/t.txt"), "x").unwrap();
        std::fs::write(root.join("outside.txt"), "x").unwrap();
        let home = root.join("home");
        let links = [
            ("d/near", "t.txt".into(), home.join("d/t.txt")),
            ("d/up", "../../outside.txt".into(), root.join("outside.txt")),
            ("d/real", root.join("real/d/t.txt"), home.join("d/t.txt")),
            ("d/dir", "..".into(), home.clone()),
            ("d/dangling", "gone".into(), home.join("d/gone")),
        ];
        for (name, points_to, expected) in links {
            let path = home.join(name);
            std::os::unix::fs::symlink::<PathBuf, _>(points_to, &path).unwrap();
            let target = describe(&path).unwrap().symlink_target;
            assert_eq!(target, Some(expected.display().to_string()), "{name}");
        }
    }
}
