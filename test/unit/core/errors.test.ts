import { describe, expect, it } from 'vitest';
import { AppError, ERROR_STATUS } from '../../../lib/core/errors';
import { errorBody } from '../../../lib/http/envelope';

describe('AppError', () => {
  it('maps its code to the HTTP status of the table', () => {
    expect(new AppError('INVALID_INPUT', 'x').status).toBe(400);
    expect(new AppError('UNAUTHORIZED', 'x').status).toBe(401);
    expect(new AppError('FORBIDDEN', 'x').status).toBe(403);
    expect(new AppError('NOT_FOUND', 'x').status).toBe(404);
    expect(new AppError('PRECONDITION_FAILED', 'x').status).toBe(412);
    expect(new AppError('GONE', 'x').status).toBe(410);
  });

  it('keeps every status of the table within 400..599', () => {
    for (const status of Object.values(ERROR_STATUS)) expect(status >= 400 && status < 600).toBe(true);
  });

  it('renders the spec envelope with data always an array', () => {
    expect(
      errorBody(new AppError('INVALID_INPUT', 'pageSize must be between 1 and 1000', { field: 'pageSize' })),
    ).toEqual({
      status: 'ERROR',
      code: 'INVALID_INPUT',
      message: 'pageSize must be between 1 and 1000',
      data: [{ field: 'pageSize' }],
    });
    expect(errorBody(new AppError('NOT_FOUND', 'no such plant')).data).toEqual([]);
  });
});
