package review

// Links and sessions are the job service's (jobs.ReviewAccess): kept in
// its record store under the SHA-256 of their token, so any node of a
// cluster redeems a link and serves a session, and revoking the API key
// that made a link ends the link and its sessions on every node at once.
// The editor only carries tokens between the browser and the service.

// Roles a link carries.
const (
	RoleReviewer = "reviewer"
	RoleViewer   = "viewer"
)
