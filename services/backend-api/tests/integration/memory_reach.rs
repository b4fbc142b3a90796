//! What of a person's memory reaches which run, with the scripted model over the real
//! wire: a job (the jobs API, an automation) gets neither the notes nor the `memory`
//! tool, also when it continues a chat. Runs on both stores.

use serde_json::json;
use support::fake_llm::{FakeLlm, Reply};

use crate::memory::{ada_with_a_note, keep_the_note, offers_memory, system_prompt, NOTE};
use crate::support;

#[tokio::test]
async fn a_job_gets_neither_the_notes_nor_the_tool() {
    let mut replies = keep_the_note();
    replies.extend([
        Reply::Text("Deployed"),
        Reply::Text("Hi"),
        Reply::Text("Deployed again"),
    ]);
    let llm = FakeLlm::start(replies).await;
    let (app, ada, _) = ada_with_a_note(&llm).await;
    let key = app.jobs_key(&ada).await;

    let job = app.create_job(&key, json!({ "prompt": "Deploy the app" })).await;
    app.until_job(&key, job["id"].as_str().unwrap(), "succeeded")
        .await;
    assert!(
        !system_prompt(&llm, 2).contains(NOTE),
        "{}",
        system_prompt(&llm, 2)
    );
    assert!(!offers_memory(&llm, 2));

    // A chat of hers has the notes and the tool; a job continuing it has neither.
    let chat = app.new_session(&ada).await;
    app.turn(&ada, &chat, "Hello").await;
    assert!(system_prompt(&llm, 3).contains(NOTE));
    assert!(offers_memory(&llm, 3));
    let job = app
        .create_job(&key, json!({ "prompt": "Deploy again", "session": chat }))
        .await;
    app.until_job(&key, job["id"].as_str().unwrap(), "succeeded")
        .await;
    assert!(
        !system_prompt(&llm, 4).contains(NOTE),
        "{}",
        system_prompt(&llm, 4)
    );
    assert!(!offers_memory(&llm, 4));
}
