import { CATEGORIES, type Category } from '@contract/constants';
import { describe, expect, it } from 'vitest';
import en from '../../../locales/en/common.json';
import tr from '../../../locales/tr/common.json';
import { categoryNamed, readTaskListState, taskListApiQuery, writeTaskListState } from './task-list-query';

const labels = [en.categories, tr.categories] as Record<Category, string>[];

describe('the admin task list query', () => {
  it('reads the address bar, falling back to the defaults', () => {
    expect(readTaskListState(new URLSearchParams('q=anket&status=inactive&page=3'))).toEqual({
      q: 'anket',
      status: 'inactive',
      page: 3,
    });
    expect(readTaskListState(new URLSearchParams('status=nope&page=-2'))).toEqual({
      q: '',
      status: 'all',
      page: 1,
    });
  });

  it('writes only what differs from the defaults', () => {
    expect(writeTaskListState({ q: '', status: 'all', page: 1 }).toString()).toBe('');
    expect(writeTaskListState({ q: 'x y', status: 'completed', page: 2 }).toString()).toBe(
      'q=x+y&status=completed&page=2',
    );
  });

  it('finds a category by its label in either language', () => {
    expect(categoryNamed('Anket', labels)).toBe('survey');
    expect(categoryNamed('sosyal medya', labels)).toBe('social_media');
    expect(categoryNamed('Social media', labels)).toBe('social_media');
    expect(categoryNamed('ÇEKİLİŞ', labels)).toBe('giveaway');
    expect(categoryNamed('Instagram', labels)).toBeUndefined();
    expect(CATEGORIES.every((c) => categoryNamed(en.categories[c], labels) === c)).toBe(true);
  });

  it('asks the server for every task, 10 a page, by status and search', () => {
    expect(taskListApiQuery({ q: ' takip ', status: 'active', page: 2 }, labels)).toBe(
      'all=1&sort=newest&status=active&q=takip&page=2&limit=10',
    );
    expect(taskListApiQuery({ q: 'Oyun', status: 'all', page: 1 }, labels)).toBe(
      'all=1&sort=newest&category=game&page=1&limit=10',
    );
  });
});
