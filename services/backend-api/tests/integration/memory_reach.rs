//! What of a person's memory reaches which run, with the scripted model over the real
//! wire: a job (the jobs API, an automation) gets neither the notes nor the `memory`
//! tool, also when it continues a chat; memory switched off, or a note deleted on the
//! Memory page, reaches a chat already started at its next run; a deleted chat's frozen
//! notes go with it. Runs on both stores.

use std::path::Path;

use reqwest::{Method, StatusCode};
use serde_json::json;
use support::fake_llm::{FakeLlm, Reply};

use crate::memory::{
    ada_with_a_note, keep_the_note, memory, note_path, offers_memory, set_memory, system_prompt, NOTE,
};
use crate::support::{self, shared_stores, store_name};

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

#[tokio::test]
async fn off_and_a_deleted_note_reach_a_chat_already_started() {
    let mut replies = keep_the_note();
    replies.extend(["Hi", "Off", "On again", "Deleted"].map(Reply::Text));
    let llm = FakeLlm::start(replies).await;
    let (app, ada, _) = ada_with_a_note(&llm).await;
    let chat = app.new_session(&ada).await;
    app.turn(&ada, &chat, "Hello").await;
    let began = system_prompt(&llm, 2);
    assert!(began.contains(NOTE));

    // Off: the chat's next run gets neither its frozen notes nor the tool.
    set_memory(&app, &ada, false).await;
    app.turn(&ada, &chat, "Hello again").await;
    assert!(
        !system_prompt(&llm, 3).contains(NOTE),
        "{}",
        system_prompt(&llm, 3)
    );
    assert!(!offers_memory(&llm, 3));

    // On again: the same prompt as before, its prefix unchanged.
    set_memory(&app, &ada, true).await;
    app.turn(&ada, &chat, "Back on").await;
    assert_eq!(system_prompt(&llm, 4), began);

    // Deleted on the Memory page: gone from the chat's next run.
    let id = memory(&app, &ada).await["notes"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.expect(
        StatusCode::NO_CONTENT,
        Method::DELETE,
        &note_path(&id),
        Some(&ada),
        None,
    )
    .await;
    app.turn(&ada, &chat, "Forget it").await;
    assert!(
        !system_prompt(&llm, 5).contains(NOTE),
        "{}",
        system_prompt(&llm, 5)
    );
    assert!(offers_memory(&llm, 5));
}

/// How many frozen prompt parts the store holds for `session`; the embedded store is
/// read with its server stopped.
async fn frozen_prompts(data_dir: &Path, session: &str) -> usize {
    match shared_stores() {
        None => {
            use redb::{ReadableDatabase, ReadableTable, TableDefinition};
            let prompts: TableDefinition<(&str, &str), &str> = TableDefinition::new("memory_prompts");
            let db = redb::Database::open(data_dir.join("sandpiper.redb")).unwrap();
            let txn = db.begin_read().unwrap();
            let table = txn.open_table(prompts).unwrap();
            let rows = table.iter().unwrap().map(Result::unwrap);
            rows.filter(|(key, _)| key.value().1 == session).count()
        }
        Some((uri, _)) => {
            use mongodb::bson::{doc, Document};
            let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
            let db = client.database(&store_name(data_dir));
            let prompts = db.collection::<Document>("memory_prompts");
            let count = prompts.count_documents(doc! { "session_id": session }).await;
            count.unwrap() as usize
        }
    }
}

#[tokio::test]
async fn a_deleted_chat_takes_its_frozen_notes_with_it() {
    let mut replies = keep_the_note();
    replies.extend(["Hi", "Hello"].map(Reply::Text));
    let llm = FakeLlm::start(replies).await;
    let (mut app, ada, _) = ada_with_a_note(&llm).await;
    let (gone, kept) = (app.new_session(&ada).await, app.new_session(&ada).await);
    for chat in [&gone, &kept] {
        app.turn(&ada, chat, "Hello").await;
    }
    let path = format!("/api/v1/sessions/{gone}");
    app.expect(StatusCode::NO_CONTENT, Method::DELETE, &path, Some(&ada), None)
        .await;
    app.stop().await;
    assert_eq!(
        frozen_prompts(&app.data_dir, &kept).await,
        1,
        "the other chat keeps its own"
    );
    assert_eq!(frozen_prompts(&app.data_dir, &gone).await, 0);
}
