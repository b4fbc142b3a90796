//! Methods for the files routes. The streaming ones (download, archive, watch) return the
//! checked response, so the caller reads the body as it arrives.

use reqwest::header::RANGE;
use reqwest::{Body, Method, Response};
use tool_api_contract::files::{
    ArchiveFormat, ArchiveQuery, DeleteRequest, FileEntry, FindRequest, FindResponse, ListResponse,
    MkdirRequest, MoveRequest, PathRequest, ReadFileRequest, ReadFileResponse, ReplaceRequest,
    ReplaceResponse, SearchRequest, SearchResponse, UploadQuery, UploadResponse, WatchQuery,
    WriteFileRequest, WriteFileResponse,
};

use crate::{check, decode, ClientResult, ToolApiClient};

impl ToolApiClient {
    pub async fn read_file(&self, request: &ReadFileRequest) -> ClientResult<ReadFileResponse> {
        self.post_json("/v1/files/read", request).await
    }

    pub async fn write_file(&self, request: &WriteFileRequest) -> ClientResult<WriteFileResponse> {
        self.post_json("/v1/files/write", request).await
    }

    /// Replaces exactly one occurrence; `AmbiguousMatch` carries `details.count`.
    pub async fn replace(&self, request: &ReplaceRequest) -> ClientResult<ReplaceResponse> {
        self.post_json("/v1/files/replace", request).await
    }

    pub async fn find(&self, request: &FindRequest) -> ClientResult<FindResponse> {
        self.post_json("/v1/files/find", request).await
    }

    pub async fn search(&self, request: &SearchRequest) -> ClientResult<SearchResponse> {
        self.post_json("/v1/files/search", request).await
    }

    pub async fn list(&self, path: &str) -> ClientResult<ListResponse> {
        self.post_json("/v1/files/list", &path_request(path)).await
    }

    pub async fn stat(&self, path: &str) -> ClientResult<FileEntry> {
        self.post_json("/v1/files/stat", &path_request(path)).await
    }

    pub async fn mkdir(&self, request: &MkdirRequest) -> ClientResult<FileEntry> {
        self.post_json("/v1/files/mkdir", request).await
    }

    pub async fn move_path(&self, request: &MoveRequest) -> ClientResult<FileEntry> {
        self.post_json("/v1/files/move", request).await
    }

    pub async fn delete(&self, request: &DeleteRequest) -> ClientResult<()> {
        let request = self.request(Method::POST, "/v1/files/delete").json(request);
        check(request.send().await?).await?;
        Ok(())
    }

    /// Uploads `body` (e.g. `reqwest::Body::wrap_stream(…)` to stream it) to `path`.
    pub async fn upload(
        &self,
        path: &str,
        overwrite: bool,
        body: impl Into<Body>,
    ) -> ClientResult<UploadResponse> {
        let query = UploadQuery {
            path: path.to_owned(),
            overwrite,
        };
        let request = self.request(Method::PUT, "/v1/files/upload").query(&query);
        decode(request.body(body).send().await?).await
    }

    /// The file as a streaming response; `range` is a `Range` header value such as
    /// `bytes=0-1023` (answered with 206).
    pub async fn download(&self, path: &str, range: Option<&str>) -> ClientResult<Response> {
        let mut request = self
            .request(Method::GET, "/v1/files/download")
            .query(&path_request(path));
        if let Some(range) = range {
            request = request.header(RANGE, range);
        }
        check(request.send().await?).await
    }

    /// The directory as a streaming zip or tar.gz.
    pub async fn archive(&self, path: &str, format: ArchiveFormat) -> ClientResult<Response> {
        let query = ArchiveQuery {
            path: path.to_owned(),
            format,
        };
        let request = self.request(Method::GET, "/v1/files/archive").query(&query);
        check(request.send().await?).await
    }

    /// The watch's event stream (SSE: event `file`, data a `FileEvent`).
    pub async fn watch(&self, path: &str, recursive: bool) -> ClientResult<Response> {
        let query = WatchQuery {
            path: path.to_owned(),
            recursive,
        };
        let request = self.request(Method::GET, "/v1/files/watch").query(&query);
        check(request.send().await?).await
    }
}

fn path_request(path: &str) -> PathRequest {
    PathRequest {
        path: path.to_owned(),
    }
}
