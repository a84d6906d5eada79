import { describe, expect, it } from 'vitest';
import {
  PORTAL_UPLOAD_PATH,
  portalDownloadPath,
  portalUploadUrl,
  ZPortalComment,
  ZPortalFolderInput,
  ZPortalTag,
  ZPortalTaskList,
} from './client-portal';

const id = '01a202f6-0f04-75a8-a2bb-c8efca661c26';

describe('client portal rules', () => {
  it('builds the upload and download addresses with only what is given', () => {
    expect(portalUploadUrl({ clientId: id })).toBe(`${PORTAL_UPLOAD_PATH}?clientId=${id}`);
    expect(portalUploadUrl({ clientId: id, folderId: id, taskId: id })).toBe(
      `${PORTAL_UPLOAD_PATH}?clientId=${id}&folderId=${id}&taskId=${id}`,
    );
    expect(portalDownloadPath(id, id)).toBe(`/api/clientportal/${id}/documents/${id}/download`);
  });

  it('says what is wrong with a comment, and trims it', () => {
    expect(ZPortalComment.safeParse({ taskId: id, body: '   ' }).error?.issues[0]?.message).toBe(
      'Write a comment first',
    );
    expect(ZPortalComment.safeParse({ taskId: id, body: 'x'.repeat(5001) }).error?.issues[0]?.message).toBe(
      'A comment must be at most 5,000 characters',
    );
    expect(ZPortalComment.parse({ taskId: id, body: '  Sent today  ' }).body).toBe('Sent today');
    expect(ZPortalComment.safeParse({ taskId: 'nope', body: 'hi' }).error?.issues[0]?.message).toBe(
      'This task link is not valid',
    );
  });

  it('defaults lists to the first page of open tasks, and refuses bad pages and tags', () => {
    expect(ZPortalTaskList.parse({})).toEqual({ view: 'open', page: 1, pageSize: 20 });
    expect(ZPortalTaskList.safeParse({ view: 'all' }).success).toBe(false);
    expect(ZPortalTaskList.safeParse({ page: 0 }).success).toBe(false);
    expect(ZPortalFolderInput.safeParse({ folderId: 'x' }).error?.issues[0]?.message).toBe(
      'This folder link is not valid',
    );
    expect(ZPortalTag.safeParse('x'.repeat(65)).success).toBe(false);
    expect(ZPortalTag.safeParse(' ').success).toBe(false);
  });
});
