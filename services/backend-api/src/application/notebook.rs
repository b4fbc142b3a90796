//! A session's code cells as a Jupyter notebook (nbformat 4): every finished `code_run`
//! in order, with its streams, outputs (pictures read back from the session's images) and
//! error, so the work can be opened, rerun and shared in Jupyter.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use serde_json::{json, Value};
use tool_api_contract::code::CodeLanguage;

use super::sessions::SessionService;
use super::AppResult;
use crate::domain::event::AgentEvent;
use crate::domain::image::{ImageFormat, ImageId};
use crate::domain::session::SessionId;
use crate::domain::tool::{CodeCell, CodeOutput, ToolView};
use crate::domain::user::UserId;

/// Events read per page while collecting cells.
const PAGE: usize = 500;

impl SessionService {
    /// The owner's session's code cells as an `.ipynb` document.
    pub async fn notebook(&self, owner: &UserId, id: &str) -> AppResult<Value> {
        let session = self.get(owner, id).await?;
        let mut cells = Vec::new();
        let mut after = 0;
        loop {
            let page = self.events.page(&session.id, after, PAGE).await?;
            let Some(last) = page.last() else { break };
            after = last.seq;
            for stored in page {
                if let AgentEvent::Tool { view: Some(view), .. } = stored.event {
                    cells.extend(self.cell(&session.id, view).await?);
                }
            }
        }
        Ok(json!({
            "nbformat": 4,
            "nbformat_minor": 4,
            "metadata": {
                "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                "language_info": {"name": "python"},
            },
            "cells": cells,
        }))
    }

    /// The cell a code view makes (`None` for other tools' views).
    async fn cell(&self, session: &SessionId, view: ToolView) -> AppResult<Option<Value>> {
        let ToolView::Code(cell) = view else {
            return Ok(None);
        };
        let CodeCell {
            code,
            language,
            execution_count,
            stdout,
            stderr,
            outputs,
            error,
            ..
        } = *cell;
        let mut shown = Vec::new();
        for (name, text) in [("stdout", stdout), ("stderr", stderr)] {
            if !text.is_empty() {
                shown.push(json!({"output_type": "stream", "name": name, "text": text}));
            }
        }
        for output in outputs {
            let data = match output {
                CodeOutput::Text { text } => json!({ "text/plain": text }),
                CodeOutput::Html { html } => json!({ "text/html": html }),
                CodeOutput::Image {
                    image: Some(image), ..
                } => {
                    let Ok(id) = ImageId::parse(&image.id) else {
                        continue;
                    };
                    let Some(bytes) = self.images.get(session, &id).await? else {
                        continue;
                    };
                    match id.format() {
                        ImageFormat::Svg => json!({ "image/svg+xml": String::from_utf8_lossy(&bytes) }),
                        ImageFormat::Png => json!({ "image/png": BASE64.encode(bytes) }),
                        ImageFormat::Jpeg => json!({ "image/jpeg": BASE64.encode(bytes) }),
                    }
                }
                CodeOutput::Image { image: None, .. } => continue,
            };
            shown.push(json!({"output_type": "display_data", "data": data, "metadata": {}}));
        }
        if let Some(error) = error {
            shown.push(json!({
                "output_type": "error",
                "ename": error.name,
                "evalue": error.value,
                "traceback": error.traceback.lines().collect::<Vec<_>>(),
            }));
        }
        let source = match language {
            CodeLanguage::Python => code,
            CodeLanguage::Bash => format!("%%bash\n{code}"),
        };
        Ok(Some(json!({
            "cell_type": "code",
            "execution_count": execution_count,
            "metadata": {},
            "source": source,
            "outputs": shown,
        })))
    }
}
