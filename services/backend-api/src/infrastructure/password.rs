//! Password hashing with Argon2id (RFC 9106), PHC strings in the store. The cost is
//! configurable; the default is OWASP's (19 MiB, 2 passes, 1 lane).
//!
//! The work runs on a small fixed set of threads of its own, each keeping its Argon2
//! memory from one check to the next. Allocated afresh per check on the blocking pool,
//! those 19 MiB blocks were served from a glibc arena per thread and stayed in the
//! process after a burst (hundreds of MiB, see the README's memory ceiling); here the
//! memory is `threads × cost`, allocated once. How many checks may wait for these
//! threads is the application's business (`application/password_checks.rs`): this
//! adapter queues whatever it is given.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};

use argon2::password_hash;
use argon2::password_hash::phc::{Output, ParamsString, PasswordHash, Salt};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use tokio::sync::oneshot;

use crate::domain::ports::PasswordHasher;
use crate::domain::user::Password;
use crate::domain::{DomainError, DomainResult};

/// One piece of work for a hashing thread, given that thread's memory.
type Job = Box<dyn FnOnce(&mut Memory) + Send>;

pub struct Argon2Hasher {
    params: Params,
    /// Dropping it ends the threads once their queue is empty.
    jobs: Sender<Job>,
    decoy: String,
}

impl Argon2Hasher {
    /// `memory_kib` and `iterations` as in RFC 9106; one lane. `threads` run the checks.
    pub fn new(memory_kib: u32, iterations: u32, threads: usize) -> anyhow::Result<Self> {
        let params = Params::new(memory_kib, iterations, 1, None)
            .map_err(|err| anyhow::anyhow!("argon2 parameters: {err}"))?;
        let (jobs, queue) = channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for n in 0..threads.max(1) {
            let queue = queue.clone();
            std::thread::Builder::new()
                .name(format!("argon2-{n}"))
                .spawn(move || work(&queue))?;
        }
        // Made on a hashing thread too: memory allocated and freed here would raise
        // glibc's mmap threshold to the cost, and later large blocks would then stay in
        // the arenas after their use.
        let (decoy, made) = channel();
        let decoy_params = params.clone();
        jobs.send(Box::new(move |memory| {
            let _ = decoy.send(hash(&decoy_params, memory, uuid::Uuid::new_v4().as_bytes()));
        }))
        .map_err(|_| anyhow::anyhow!("the hashing threads have ended"))?;
        let decoy = made.recv()?.map_err(|err| anyhow::anyhow!("argon2: {err}"))?;
        Ok(Self { params, jobs, decoy })
    }

    /// Runs `job` on a hashing thread and waits for its answer.
    async fn run<T: Send + 'static>(&self, job: impl FnOnce(&mut Memory) -> T + Send + 'static) -> Option<T> {
        let (answer, answered) = oneshot::channel();
        let job: Job = Box::new(move |memory| {
            let _ = answer.send(job(memory));
        });
        self.jobs.send(job).ok()?;
        answered.await.ok()
    }
}

/// Takes jobs until the hasher is dropped.
fn work(queue: &Mutex<Receiver<Job>>) {
    let mut memory = Memory::default();
    loop {
        let next = match queue.lock() {
            Ok(queue) => queue.recv(),
            Err(_) => return,
        };
        match next {
            Ok(job) => job(&mut memory),
            Err(_) => return,
        }
    }
}

/// A thread's Argon2 blocks: grown to the largest cost it has met, never shrunk.
#[derive(Default)]
struct Memory(Vec<Block>);

impl Memory {
    fn blocks(&mut self, params: &Params) -> &mut [Block] {
        let count = params.block_count();
        if self.0.len() < count {
            self.0.resize(count, Block::new());
        }
        &mut self.0[..count]
    }
}

fn hash(params: &Params, memory: &mut Memory, password: &[u8]) -> password_hash::Result<String> {
    let salt = Salt::generate();
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone()).hash_password_into_with_memory(
        password,
        &salt,
        &mut out,
        memory.blocks(params),
    )?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(params)?,
        salt: Some(salt),
        hash: Some(Output::new(&out)?),
    };
    Ok(phc.to_string())
}

/// Recomputes with the stored hash's own algorithm, version and cost; the outputs are
/// compared in constant time (`Output`'s equality).
fn verify(memory: &mut Memory, password: &[u8], stored: &str) -> Option<bool> {
    let stored = PasswordHash::new(stored).ok()?;
    let algorithm = Algorithm::try_from(stored.algorithm.as_str()).ok()?;
    let version = match stored.version {
        Some(version) => Version::try_from(version).ok()?,
        None => Version::default(),
    };
    let params = Params::try_from(&stored).ok()?;
    let (salt, expected) = (stored.salt?, stored.hash?);
    let mut out = vec![0u8; expected.len()];
    Argon2::new(algorithm, version, params.clone())
        .hash_password_into_with_memory(password, &salt, &mut out, memory.blocks(&params))
        .ok()?;
    Some(Output::new(&out).ok()? == expected)
}

#[async_trait::async_trait]
impl PasswordHasher for Argon2Hasher {
    async fn hash(&self, password: &Password) -> DomainResult<String> {
        let params = self.params.clone();
        let password = password.expose().to_owned();
        self.run(move |memory| hash(&params, memory, password.as_bytes()))
            .await
            .ok_or_else(|| DomainError::Internal(anyhow::anyhow!("the hashing threads have ended")))?
            .map_err(|err| DomainError::Internal(anyhow::anyhow!("argon2: {err}")))
    }

    async fn verify(&self, password: &str, hash: &str) -> bool {
        let (password, hash) = (password.to_owned(), hash.to_owned());
        self.run(move |memory| verify(memory, password.as_bytes(), &hash))
            .await
            .flatten()
            .unwrap_or(false)
    }

    fn decoy(&self) -> &str {
        &self.decoy
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use argon2::password_hash::{PasswordHasher as _, PasswordVerifier as _};

    #[tokio::test]
    async fn a_hash_verifies_its_password_only() {
        let hasher = Argon2Hasher::new(1024, 1, 2).unwrap();
        let password = Password::parse("correct horse battery").unwrap();
        let hash = hasher.hash(&password).await.unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=1024,t=1,p=1$"), "{hash}");
        assert!(hasher.verify("correct horse battery", &hash).await);
        assert!(!hasher.verify("correct horse battery!", &hash).await);
        assert!(!hasher.verify("correct horse battery", "not a hash").await);
        assert!(!hasher.verify("", hasher.decoy()).await);
        assert_ne!(hash, hasher.hash(&password).await.unwrap(), "salted");
    }

    #[tokio::test]
    async fn hashes_agree_with_the_reference_implementation_whatever_their_cost() {
        let hasher = Argon2Hasher::new(1024, 1, 1).unwrap();
        let ours = hasher
            .hash(&Password::parse("correct horse battery").unwrap())
            .await
            .unwrap();
        assert!(Argon2::default()
            .verify_password(b"correct horse battery", ours.as_str())
            .is_ok());
        // Stored with another (larger) cost: the thread's memory grows to fit it.
        let reference = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(2048, 2, 1, None).unwrap(),
        )
        .hash_password(b"correct horse battery")
        .unwrap()
        .to_string();
        assert!(hasher.verify("correct horse battery", &reference).await);
        assert!(!hasher.verify("correct horse batterz", &reference).await);
    }
}
