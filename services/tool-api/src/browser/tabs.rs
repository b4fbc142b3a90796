//! The browser's tabs: listed, opened, switched to and closed. The active tab is the one
//! the other actions work on; these change which one it is.

use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::target::{
    CloseTargetParams, CreateTargetParams, GetTargetsParams, TargetId, TargetInfo,
};
use tool_api_contract::browser::{PageSummary, TabInfo, TabList};

use super::actions::{normalise_url, DEFAULT_NAVIGATION_TIMEOUT};
use super::connection::Connection;
use super::{BrowserTools, ACTION_TIMEOUT};
use crate::error::{ToolError, ToolResult};

impl BrowserTools {
    /// Tabs as the browser lists them (browser-level, so no tab's session is needed).
    pub async fn tabs(&self) -> ToolResult<TabList> {
        let mut slot = self.connection().await?;
        let live = slot.as_mut().ok_or_else(super::unavailable)?;
        let active = live.active.target_id().clone();
        let targets = self.page_targets(live).await?;
        let tabs = targets
            .into_iter()
            .map(|target| TabInfo {
                active: target.target_id == active,
                tab_id: target.target_id.as_ref().to_owned(),
                url: target.url,
                title: target.title,
            })
            .collect();
        Ok(TabList { tabs })
    }

    pub async fn open_tab(&self, url: Option<&str>) -> ToolResult<PageSummary> {
        let url = url.map(normalise_url).transpose()?;
        let mut slot = self.connection().await?;
        let live = slot.as_mut().ok_or_else(super::unavailable)?;
        let create = CreateTargetParams::new("about:blank");
        let created = self.bounded(ACTION_TIMEOUT, live.browser.execute(create)).await?;
        // A new connection, so its console is collected before the page loads.
        let page = self.reconnect(&mut slot, Some(&created.result.target_id)).await?;
        drop(slot);
        if let Some(url) = url {
            self.load(&page, &url, Duration::from_secs_f64(DEFAULT_NAVIGATION_TIMEOUT))
                .await?;
        }
        self.summary(&page).await
    }

    pub async fn switch_tab(&self, tab_id: &str) -> ToolResult<PageSummary> {
        let mut slot = self.connection().await?;
        let live = slot.as_mut().ok_or_else(super::unavailable)?;
        let target = self.tab_target(live, tab_id).await?;
        let page = self.reconnect(&mut slot, Some(&target)).await?;
        drop(slot);
        self.summary(&page).await
    }

    /// Closes a tab; closing the active one makes another (or a new blank one) active.
    pub async fn close_tab(&self, tab_id: &str) -> ToolResult<TabList> {
        let mut slot = self.connection().await?;
        let live = slot.as_mut().ok_or_else(super::unavailable)?;
        let target = self.tab_target(live, tab_id).await?;
        let active = live.active.target_id().clone();
        let close = CloseTargetParams::new(target.clone());
        self.bounded(ACTION_TIMEOUT, live.browser.execute(close)).await?;
        if active == target {
            let targets = self.page_targets(live).await?;
            let next = targets
                .into_iter()
                .find(|t| t.target_id != target)
                .map(|t| t.target_id);
            self.reconnect(&mut slot, next.as_ref()).await?;
        }
        drop(slot);
        // The browser reports the closed target gone a moment after the close returns.
        let deadline = std::time::Instant::now() + Duration::from_secs(2);
        loop {
            let tabs = self.tabs().await?;
            if tabs.tabs.iter().all(|t| t.tab_id != tab_id) || std::time::Instant::now() >= deadline {
                return Ok(tabs);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The browser's tabs. Asked with a plain `Target.getTargets`: chromiumoxide's own
    /// `fetch_targets` also attaches to every target again, which replaces the sessions
    /// of the tabs already in use and leaves their handles dead.
    async fn page_targets(&self, live: &Connection) -> ToolResult<Vec<TargetInfo>> {
        let all = self
            .bounded(ACTION_TIMEOUT, live.browser.execute(GetTargetsParams::default()))
            .await?;
        Ok(all
            .result
            .target_infos
            .into_iter()
            .filter(|t| t.r#type == "page")
            .collect())
    }

    /// The target of an open tab.
    async fn tab_target(&self, live: &Connection, tab_id: &str) -> ToolResult<TargetId> {
        let targets = self.page_targets(live).await?;
        targets
            .into_iter()
            .find(|target| target.target_id.as_ref() == tab_id)
            .map(|target| target.target_id)
            .ok_or_else(|| ToolError::not_found(format!("no tab {tab_id:?}; list the tabs to see their ids")))
    }
}
