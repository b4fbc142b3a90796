//! Files handed back from sub-agents' sandboxes: two combined by the planner, and only
//! from inside the workspace and under the cap.

use super::*;

#[tokio::test]
async fn two_sub_agents_in_two_sandboxes_hand_back_files_the_planner_combines() {
    let planner = FakeLlm::start_as(
        Provider::with_key("key-of-planner"),
        vec![
            Reply::Tools(vec![
                delegate(
                    "Task A: write a.txt",
                    json!({ "own_sandbox": true, "return_files": ["a.txt"] }),
                ),
                delegate(
                    "Task B: write b.txt",
                    json!({ "own_sandbox": true, "return_files": ["b.txt"] }),
                ),
            ]),
            Reply::tool(
                "shell_exec",
                json!({ "command": "cat a.txt b.txt > both.txt; cat both.txt; ls" }),
            ),
            Reply::Text("Combined into both.txt."),
        ],
    )
    .await;
    let coder = FakeLlm::start_as(Provider::with_key("key-of-coder"), vec![]).await;
    coder.route(
        "Task A",
        vec![
            Reply::tool(
                "file_write",
                json!({ "path": "a.txt", "content": "alpha from A\n" }),
            ),
            Reply::Text("Wrote a.txt."),
        ],
    );
    coder.route(
        "Task B",
        vec![
            Reply::tool("shell_exec", json!({ "command": "echo beta from B > b.txt; ls" })),
            Reply::Text("Wrote b.txt."),
        ],
    );
    let manager = Manager::start();
    let app = sandboxed(&planner, &coder, &manager).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;

    let events = app
        .turn(
            &token,
            &id,
            "Have two helpers write a file each, then combine them",
        )
        .await;
    assert_eq!(events.last().unwrap()["status"], "completed", "{events:#?}");
    assert_every_call_closed(&events);
    let done = called(&events, "delegate");
    assert_eq!(done[0]["view"]["files"], json!(["a.txt"]), "{:#}", done[0]);
    assert_eq!(done[1]["view"]["files"], json!(["b.txt"]), "{:#}", done[1]);
    assert_eq!(done[1]["view"]["own_sandbox"], true);
    // B's shell ran in B's own sandbox: A's file was not there.
    let b_shell = nested(&events, &done[1]["call_id"])
        .into_iter()
        .find(|e| e["type"] == "tool" && e["status"] == "called")
        .unwrap()["view"]["output"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        b_shell.contains("b.txt") && !b_shell.contains("a.txt"),
        "{b_shell}"
    );
    let combined = called(&events, "shell_exec")[0]["view"]["output"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        combined.contains("alpha from A\nbeta from B"),
        "the planner's sandbox holds both files: {combined}"
    );
    until_no_sub_sandbox(&manager, &id).await;
}

#[tokio::test]
async fn handed_back_files_stay_inside_the_workspace_and_under_the_cap() {
    let outside = |path: &str| {
        delegate(
            "Task O: write it",
            json!({ "own_sandbox": true, "return_files": [path] }),
        )
    };
    let planner = FakeLlm::start_as(
        Provider::with_key("key-of-planner"),
        vec![
            // A link in the planner's workspace that leads to its home.
            Reply::tool("shell_exec", json!({ "command": "ln -s /home/sandbox home" })),
            Reply::Tools(vec![
                outside("~/.bashrc"),
                outside("/home/sandbox/.bashrc"),
                outside("../.bashrc"),
                delegate(
                    "Task P: write files",
                    json!({
                        "own_sandbox": true,
                        "return_files": ["ok.txt", "big.bin", "home/.bashrc", "dir"],
                    }),
                ),
            ]),
            Reply::Text("Done."),
        ],
    )
    .await;
    let coder = FakeLlm::start_as(Provider::with_key("key-of-coder"), vec![]).await;
    coder.route(
        "Task P",
        vec![
            Reply::tool(
                "shell_exec",
                json!({ "command": "echo fine > ok.txt; truncate -s 101M big.bin; mkdir -p home dir; \
                                    echo pwned > home/.bashrc" }),
            ),
            Reply::Text("Made them."),
        ],
    );
    let manager = Manager::start();
    let app = sandboxed(&planner, &coder, &manager).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;

    let events = app.turn(&token, &id, "Have a helper write files").await;
    assert_eq!(events.last().unwrap()["status"], "completed", "{events:#?}");
    assert_every_call_closed(&events);
    let done = called(&events, "delegate");
    assert_eq!(done.len(), 4, "{events:#?}");
    for (call, path) in done[..3]
        .iter()
        .zip(["~/.bashrc", "/home/sandbox/.bashrc", "../.bashrc"])
    {
        let message = call["view"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(&format!("`{path}` is not a path inside the workspace")),
            "{call:#}"
        );
    }
    let view = &done[3]["view"];
    assert_eq!(view["files"], json!(["ok.txt"]), "{view:#}");
    let answer = view["answer"].as_str().unwrap();
    for refused in [
        "big.bin (a file may have at most 100 MiB)",
        "home/.bashrc (`home` is a link in your sandbox",
        "dir (not a regular file)",
    ] {
        assert!(answer.contains(refused), "{answer}");
    }
    assert_eq!(read(&manager, &id, "ok.txt").await.as_deref(), Some("fine\n"));
    let bashrc = read(&manager, &id, "/home/sandbox/.bashrc").await;
    assert!(!bashrc.unwrap_or_default().contains("pwned"));
    assert_eq!(read(&manager, &id, "big.bin").await, None);
    until_no_sub_sandbox(&manager, &id).await;
}
