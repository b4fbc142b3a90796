//! Later turns remembering earlier calls and results, also after a restart.

use super::*;

#[tokio::test]
async fn later_turns_remember_earlier_calls_and_results_also_after_a_restart() {
    let llm = FakeLlm::start(vec![
        Reply::tool(
            "file_write",
            json!({ "path": "notes.txt", "content": "The code word is heron.\n" }),
        ),
        Reply::tool("file_read", json!({ "path": "notes.txt" })),
        Reply::Text("I wrote notes.txt and read it back."),
        Reply::Text("It says the code word is heron."),
        Reply::Text("Still heron."),
    ])
    .await;
    let manager = Manager::start();
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    let overrides = borrowed(&settings);
    let data = tempfile::tempdir().unwrap();
    let mut first = TestApp::spawn_on(data.path(), &overrides).await;
    let (token, _, _) = first.register("ada@example.org").await;
    let id = first.new_session(&token).await;
    let completed = |e: &Value| e["type"] == "status" && e["status"] == "completed";

    let seq = first.post_message(&token, &id, "Note the code word heron").await;
    first
        .events(&token, &id, Some(seq))
        .await
        .until(WAIT, completed)
        .await;
    let seq = first.post_message(&token, &id, "What does notes.txt say?").await;
    first
        .events(&token, &id, Some(seq))
        .await
        .until(WAIT, completed)
        .await;
    let second_turn = llm.requests()[3]["messages"].as_array().unwrap().clone();
    let read_at = second_turn
        .iter()
        .position(|m| m["tool_calls"][0]["function"]["name"] == "file_read")
        .expect("the earlier file_read call is in the second turn's request");
    let call_id = &second_turn[read_at]["tool_calls"][0]["id"];
    let result = &second_turn[read_at + 1];
    assert_eq!(result["role"], "tool");
    assert_eq!(&result["tool_call_id"], call_id);
    assert!(
        result["content"]
            .as_str()
            .unwrap()
            .contains("The code word is heron."),
        "{result}"
    );
    let last = second_turn.last().unwrap();
    assert_eq!(
        (&last["role"], &last["content"]),
        (&json!("user"), &json!("What does notes.txt say?"))
    );

    // A restarted backend starts the next turn from the same memory.
    first.stop().await;
    let second = TestApp::spawn_on(data.path(), &overrides).await;
    let seq = second.post_message(&token, &id, "And now?").await;
    second
        .events(&token, &id, Some(seq))
        .await
        .until(WAIT, completed)
        .await;
    let third_turn = llm.requests()[4]["messages"].as_array().unwrap().clone();
    assert_eq!(third_turn[..second_turn.len()], second_turn[..]);
    let added: Vec<(&str, &str)> = third_turn[second_turn.len()..]
        .iter()
        .map(|m| (m["role"].as_str().unwrap(), m["content"].as_str().unwrap()))
        .collect();
    assert_eq!(
        added,
        [
            ("assistant", "It says the code word is heron."),
            ("user", "And now?")
        ]
    );
}
