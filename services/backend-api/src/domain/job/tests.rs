//! Jobs' statuses, limits and requests, as parsed at the edge.

use super::*;
use crate::domain::job_attachment::JobFile;

#[test]
fn statuses_parse_by_name() {
    for status in JobStatus::ALL {
        assert_eq!(JobStatus::parse(status.as_str()).unwrap(), status);
    }
    assert!(JobStatus::parse("done").is_err());
}

#[test]
fn timeouts_are_bounded() {
    assert!(JobTimeout::parse(9, 100).is_err());
    assert!(JobTimeout::parse(101, 100).is_err());
    assert_eq!(JobTimeout::parse(100, 100).unwrap().secs(), 100);
}

#[test]
fn webhook_urls_are_http_with_a_host() {
    assert!(WebhookUrl::parse("https://hooks.example.org/a?b=c").is_ok());
    for bad in ["ftp://example.org/", "not a url", "file:///etc/passwd", "http://"] {
        assert!(WebhookUrl::parse(bad).is_err(), "{bad}");
    }
    assert!(WebhookUrl::parse(&format!("https://example.org/{}", "a".repeat(2048))).is_err());
}

#[test]
fn only_public_addresses_are_public() {
    for private in [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "::1",
        "fe80::1",
        "fd00::1",
        "::ffff:127.0.0.1",
    ] {
        assert!(!is_public(private.parse().unwrap()), "{private}");
    }
    for public in ["93.184.216.34", "2606:2800:220:1::1"] {
        assert!(is_public(public.parse().unwrap()), "{public}");
    }
}

#[test]
fn attachments_are_named_under_uploads_and_counted() {
    let files = JobFile::parse_all(
        [
            ("a.csv".to_owned(), "eCwxCg==".to_owned()),
            ("b".to_owned(), "YQ==".to_owned()),
        ]
        .into_iter(),
        2,
        10,
    )
    .unwrap();
    let request = JobRequest {
        prompt: "hi".into(),
        attachments: files.iter().map(JobFile::attachment).collect(),
        network: None,
        timeout: JobTimeout::parse(60, 60).unwrap(),
        webhook: None,
        api_key: None,
        automation: None,
    };
    let job = Job::new(UserId::new(), SessionId::new(), request, Utc::now());
    assert!(!job.attachments_written);
    assert_eq!(job.attachment_paths(), ["uploads/a.csv", "uploads/b"]);
    assert_eq!(job.attachment_bytes(), 5);
}

#[test]
fn final_moves_stamp_the_end_and_keep_the_start() {
    let request = JobRequest {
        prompt: "hi".into(),
        attachments: vec![],
        network: None,
        timeout: JobTimeout::parse(60, 60).unwrap(),
        webhook: None,
        api_key: None,
        automation: None,
    };
    let start = Utc::now();
    let mut job = Job::new(UserId::new(), SessionId::new(), request, start);
    assert_eq!(job.deadline(), None);
    job.move_to(JobStatus::Running, None, start);
    job.move_to(JobStatus::Running, None, start + chrono::Duration::seconds(5));
    assert_eq!(job.started_at, Some(start));
    assert_eq!(job.deadline(), Some(start + chrono::Duration::seconds(60)));
    job.move_to(JobStatus::Failed, Some("boom".into()), start);
    assert_eq!(job.finished_at, Some(start));
    assert_eq!(job.error.as_deref(), Some("boom"));
}
