//! What a memory note must not hold: text that looks like a key, a token or a password.
//! Notes outlive the chat and enter every later one's prompt, so a secret in one would
//! travel far; the agent is told what was refused and writes the note without it.
//!
//! The check looks for the shapes secrets have (known key prefixes, a JSON Web Token, a
//! private key block, `password: …` and the like, long random-looking words mixing
//! upper- and lower-case letters and digits, and long one-case runs of letters and digits,
//! as hex, base32 and lower-case keys are: Sandpiper's own webhook secrets are 64 hex
//! digits). It errs towards refusing: a note is short prose, and a refused one is easy to
//! rewrite; only a git commit id (40 hex digits) is let through.

/// Prefixes of providers' keys and tokens (ours too: `sp_`, `e2b_`), as they are
/// written.
const KEY_PREFIXES: &[&str] = &[
    "sk-",
    "sk_live_",
    "sk_test_",
    "rk_live_",
    "pk_live_",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "xoxs-",
    "AKIA",
    "ASIA",
    "AIza",
    "hf_",
    "sp_",
    "e2b_",
    "npm_",
    "pypi-",
    "SG.",
];

/// Words that name a secret when a value follows them (`password: x`, `token=x`).
const SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "pwd",
    "secret",
    "token",
    "api key",
    "api_key",
    "apikey",
    "access key",
    "private key",
    "credentials",
];

/// The shortest value after a key prefix that counts as a key (with a digit in it, as
/// generated keys have and `sp_snake_case_names` lack).
const MIN_KEY_TAIL: usize = 12;
/// The shortest random-looking word that counts as a secret.
const MIN_RANDOM_WORD: usize = 24;
/// The shortest run of letters and digits in one case that counts as a secret (a 128-bit
/// key in hex).
const MIN_ONE_CASE_RUN: usize = 32;
/// The length of a git commit id (SHA-1 in hex), which a note may name.
const COMMIT_ID: usize = 40;

/// What kind of secret `text` seems to hold, if any.
pub fn secret_kind(text: &str) -> Option<&'static str> {
    if text.contains("-----BEGIN") && text.contains("PRIVATE KEY") {
        return Some("a private key");
    }
    let lower = text.to_lowercase();
    if SECRET_WORDS.iter().any(|word| names_a_value(&lower, word)) {
        return Some("a password or token");
    }
    let words = text.split(|c: char| c.is_whitespace() || "\"'`,;()[]{}<>".contains(c));
    for word in words.filter(|word| !word.is_empty()) {
        let keyed = KEY_PREFIXES.iter().any(|prefix| {
            word.strip_prefix(prefix)
                .is_some_and(|tail| tail.len() >= MIN_KEY_TAIL && tail.chars().any(|c| c.is_ascii_digit()))
        });
        if keyed {
            return Some("an API key or access token");
        }
        if word.starts_with("eyJ") && word.matches('.').count() == 2 {
            return Some("a JSON Web Token");
        }
        if random_looking(word) || word.split(|c: char| !c.is_ascii_alphanumeric()).any(one_case_key) {
            return Some("a key or token");
        }
    }
    None
}

/// Whether `word` is followed by `:`, `=` or ` is ` and then a value, in `lower`.
fn names_a_value(lower: &str, word: &str) -> bool {
    lower.match_indices(word).any(|(at, _)| {
        let rest = lower[at + word.len()..].trim_start();
        let value = rest
            .strip_prefix(':')
            .or_else(|| rest.strip_prefix('='))
            .or_else(|| rest.strip_prefix("is "))
            .map(str::trim_start);
        value.is_some_and(|value| value.chars().next().is_some_and(|c| !c.is_whitespace()))
    })
}

/// A long word of key characters with upper- and lower-case letters and digits, as
/// generated keys are (paths, ids and hashes are one case).
fn random_looking(word: &str) -> bool {
    word.len() >= MIN_RANDOM_WORD
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_+/=.".contains(c))
        && word.chars().any(|c| c.is_ascii_uppercase())
        && word.chars().any(|c| c.is_ascii_lowercase())
        && word.chars().any(|c| c.is_ascii_digit())
}

/// A long run of letters and digits (both) in one case, as hex, base32 and lower-case
/// keys are, other than a git commit id.
fn one_case_key(run: &str) -> bool {
    let commit_id = run.len() == COMMIT_ID && run.chars().all(|c| c.is_ascii_hexdigit());
    run.len() >= MIN_ONE_CASE_RUN
        && !commit_id
        && run.chars().any(|c| c.is_ascii_digit())
        && run.chars().any(|c| c.is_ascii_alphabetic())
        && (run.chars().all(|c| !c.is_ascii_uppercase()) || run.chars().all(|c| !c.is_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::secret_kind;

    #[test]
    fn keys_tokens_and_passwords_are_found() {
        for secret in [
            "OpenAI key sk-proj-abcdefghijklmnop1234",
            "github: ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ012345",
            "AWS AKIAIOSFODNN7EXAMPLE",
            "the db password: hunter2",
            "Token=abc123",
            "their wifi passphrase is correct horse",
            "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig",
            "-----BEGIN OPENSSH PRIVATE KEY----- b3Blbn",
            "use 9fQ2xLm7PzR4tVb8NcW1yKd6HsJ3 for the api",
            "Sandpiper key sp_0123456789abcdefghij",
            "the hook's secret 3f9a0c1e7b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a",
            "signing with whsec_3f9a0c1e7b2d4f6a8c0e1b3d5f7a9c2e",
            "otp seed JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXQ",
            "the deploy hook is https://ci.example.org/hooks/9f2k4m7q1x8z3c6v0b5n2l4j7h9g1d3s",
        ] {
            assert!(secret_kind(secret).is_some(), "{secret}");
        }
    }

    #[test]
    fn ordinary_notes_pass() {
        for note in [
            "Prefers pnpm over npm; the repo lives in ~/code/sandpiper.",
            "Their password manager is 1Password (never ask for passwords).",
            "Commit 6e49dfc3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7 fixed the flaky test.",
            "Build 20261127 of release v1.2.3 ran on node-04.",
            "Prefers internationalization_and_localization_guidelines2 as the doc name.",
            "Reports go to services/backend-api/src/application/agent/run/own_calls.rs",
            "Session 0193a6f2-7c1d-7b3e-9a4f-2d8e5c6b1a09 had the draft.",
            "Writes in British English and likes short answers.",
            "Likes the asian-restaurants-near-the-office list and sk-learn-tutorials.",
            "The loader is sp_configuration_loader in tools/.",
        ] {
            assert_eq!(secret_kind(note), None, "{note}");
        }
    }
}
